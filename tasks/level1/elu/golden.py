# Golden of the Tilecraft suite task `elu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def elu(x: torch.Tensor, alpha: float = 1.0):
    """F.elu."""
    return torch.nn.functional.elu(x, alpha=alpha)
