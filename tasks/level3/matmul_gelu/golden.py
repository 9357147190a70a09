# Golden of the Tilecraft suite task `matmul_gelu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def matmul_gelu(a: torch.Tensor, b: torch.Tensor):
    """y = gelu(a @ b), tanh form."""
    return torch.nn.functional.gelu(torch.matmul(a, b), approximate='tanh')
