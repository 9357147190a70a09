# Golden of the Tilecraft suite task `rsqrt`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def rsqrt(x: torch.Tensor):
    """y = 1 / sqrt(x)"""
    return torch.rsqrt(x)
