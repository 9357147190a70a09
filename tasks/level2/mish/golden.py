# Golden of the Tilecraft suite task `mish`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def mish(x: torch.Tensor):
    """F.mish: x * tanh(softplus(x))."""
    return torch.nn.functional.mish(x)
