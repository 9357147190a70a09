# Golden of the Tilecraft suite task `mul_add`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def mul_add(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor):
    """out = x * y + z, elementwise (torch.addcmul(z, x, y))."""
    return x * y + z
