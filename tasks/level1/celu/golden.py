# Golden of the Tilecraft suite task `celu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def celu(x: torch.Tensor, alpha: float = 1.0):
    """F.celu."""
    return torch.nn.functional.celu(x, alpha=alpha)
