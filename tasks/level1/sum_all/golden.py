# Golden of the Tilecraft starter task `sum_all`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def sum_all(x: torch.Tensor):
    """The sum of every element, shape [1]."""
    return torch.sum(x).reshape(1)
