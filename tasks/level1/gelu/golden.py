# Golden of the Tilecraft starter task `gelu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def gelu(x: torch.Tensor):
    """GELU, tanh form."""
    return torch.nn.functional.gelu(x, approximate='tanh')
