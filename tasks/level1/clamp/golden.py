# Golden of the Tilecraft suite task `clamp`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def clamp(x: torch.Tensor, min: float = -1.0, max: float = 1.0):
    """y = min(max(x, min), max)"""
    return torch.clamp(x, min=min, max=max)
