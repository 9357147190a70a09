# Golden of the Tilecraft starter task `min_last`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def min_last(x: torch.Tensor):
    """Row minima (values), keepdim; a NaN in a row makes its minimum NaN (torch's rule)."""
    return torch.amin(x, dim=-1, keepdim=True)
