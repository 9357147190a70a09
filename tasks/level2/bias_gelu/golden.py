# Golden of the Tilecraft suite task `bias_gelu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def bias_gelu(x: torch.Tensor, b: torch.Tensor):
    """y = gelu(x + b), GELU in its tanh form, b of shape [N] broadcast over the rows of x [..., N]."""
    return torch.nn.functional.gelu(x + b, approximate='tanh')
