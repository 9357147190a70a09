# Golden of the Tilecraft suite task `mul_broadcast_mid`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def mul_broadcast_mid(x: torch.Tensor, s: torch.Tensor):
    """y = x * s, s of shape [1, C, 1] broadcast over the first and last axes of x [B, C, L]."""
    return x * s
