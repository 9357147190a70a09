# Golden of the Tilecraft suite task `geglu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def geglu(a: torch.Tensor, b: torch.Tensor):
    """y = gelu(a) * b with the tanh form of GELU; the two halves passed as two tensors."""
    return torch.nn.functional.gelu(a, approximate='tanh') * b
