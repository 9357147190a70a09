# Golden of the Tilecraft starter task `mean_last`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def mean_last(x: torch.Tensor):
    """Row means, keepdim."""
    return torch.mean(x, dim=-1, keepdim=True)
