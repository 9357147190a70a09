# Golden of the Tilecraft suite task `add_scalar`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def add_scalar(x: torch.Tensor, alpha: float = 1.0):
    """y = x + alpha, the scalar broadcast to every element."""
    return x + alpha
