# Golden of the Tilecraft suite task `selu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def selu(x: torch.Tensor):
    """F.selu (alpha = 1.6732632423543772, scale = 1.0507009873554805)."""
    return torch.nn.functional.selu(x)
