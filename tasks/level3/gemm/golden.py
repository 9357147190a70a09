# Golden of the Tilecraft suite task `gemm`: plain PyTorch (runs under torch 1.13). The harness passes the inputs
# (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def gemm(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, alpha: float = 1.0, beta: float = 1.0):
    """y = alpha * (a @ b) + beta * c."""
    return alpha * torch.matmul(a, b) + beta * c
