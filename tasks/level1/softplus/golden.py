# Golden of the Tilecraft suite task `softplus`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def softplus(x: torch.Tensor, beta: float = 1.0, threshold: float = 20.0):
    """F.softplus: linear above threshold."""
    return torch.nn.functional.softplus(x, beta=beta, threshold=threshold)
