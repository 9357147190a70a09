# Golden of the Tilecraft suite task `matmul_transposed_b`: plain PyTorch (runs under torch 1.13). The harness
# passes the inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def matmul_transposed_b(a: torch.Tensor, b: torch.Tensor):
    """c = a @ b.T with b stored [N, K]."""
    return torch.matmul(a, b.t())
