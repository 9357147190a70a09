# Golden of the Tilecraft suite task `bias_add`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def bias_add(x: torch.Tensor, b: torch.Tensor):
    """y = x + b, b of shape [N] broadcast over the leading dims of x [..., N]."""
    return x + b
