# Golden of the Tilecraft starter task `matmul_bias_relu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def matmul_bias_relu(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor):
    """y = relu(a @ b + bias)."""
    return torch.relu(torch.matmul(a, b) + bias)
