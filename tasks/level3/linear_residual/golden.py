# Golden of the Tilecraft suite task `linear_residual`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def linear_residual(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor, residual: torch.Tensor):
    """y = x @ w + bias + residual (a transformer output projection with its residual add)."""
    return torch.matmul(x, w) + bias + residual
