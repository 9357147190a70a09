# Golden of the Tilecraft suite task `div_broadcast_col`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def div_broadcast_col(x: torch.Tensor, c: torch.Tensor):
    """y = x / c, c of shape [..., M, 1] broadcast along the last axis of x [..., M, N]."""
    return x / c
