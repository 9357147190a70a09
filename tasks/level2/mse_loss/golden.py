# Golden of the Tilecraft starter task `mse_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def mse_loss(x: torch.Tensor, y: torch.Tensor):
    """Mean squared error, shape [1]."""
    return torch.nn.functional.mse_loss(x, y, reduction='mean').reshape(1)
