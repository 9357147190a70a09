# Golden of the Tilecraft suite task `where`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def where(x: torch.Tensor, other: torch.Tensor, threshold: float = 0.0):
    """y = torch.where(x > threshold, x, other)"""
    return torch.where(x > threshold, x, other)
