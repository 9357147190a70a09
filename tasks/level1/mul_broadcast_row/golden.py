# Golden of the Tilecraft suite task `mul_broadcast_row`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def mul_broadcast_row(x: torch.Tensor, w: torch.Tensor):
    """y = x * w, w of shape [N] broadcast over the leading dims of x [..., N]."""
    return x * w
