# Golden of the Tilecraft suite task `matmul_int8`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64, exact for int8 products and int32-range sums) and casts the result to int32.
import torch


def matmul_int8(a: torch.Tensor, b: torch.Tensor):
    """c = a @ b, exact integer accumulation."""
    return torch.matmul(a, b)
