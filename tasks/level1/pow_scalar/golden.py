# Golden of the Tilecraft suite task `pow_scalar`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def pow_scalar(x: torch.Tensor, exponent: float = 2.0):
    """y = x ** exponent"""
    return torch.pow(x, exponent)
