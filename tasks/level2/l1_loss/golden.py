# Golden of the Tilecraft suite task `l1_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def l1_loss(x: torch.Tensor, y: torch.Tensor):
    """Mean absolute error, shape [1]."""
    return torch.nn.functional.l1_loss(x, y, reduction='mean').reshape(1)
