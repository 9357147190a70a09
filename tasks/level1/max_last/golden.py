# Golden of the Tilecraft starter task `max_last`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def max_last(x: torch.Tensor):
    """Row maxima (values), keepdim; a NaN in a row makes its maximum NaN (torch's rule)."""
    return torch.amax(x, dim=-1, keepdim=True)
