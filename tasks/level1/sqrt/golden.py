# Golden of the Tilecraft suite task `sqrt`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def sqrt(x: torch.Tensor):
    """y = sqrt(x)"""
    return torch.sqrt(x)
