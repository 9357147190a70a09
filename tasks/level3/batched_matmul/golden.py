# Golden of the Tilecraft suite task `batched_matmul`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def batched_matmul(a: torch.Tensor, b: torch.Tensor):
    """c[i] = a[i] @ b[i]."""
    return torch.bmm(a, b)
