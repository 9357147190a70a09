# Golden of the Tilecraft starter task `matmul`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def matmul(a: torch.Tensor, b: torch.Tensor):
    """c = a @ b."""
    return torch.matmul(a, b)
