# Golden of the Tilecraft starter task `sum_dim0`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def sum_dim0(x: torch.Tensor):
    """Sum over the first axis (column sums of a 2-D x), the axis dropped."""
    return torch.sum(x, dim=0)
