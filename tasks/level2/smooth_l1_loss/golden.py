# Golden of the Tilecraft suite task `smooth_l1_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def smooth_l1_loss(x: torch.Tensor, y: torch.Tensor, beta: float = 1.0):
    """Smooth L1 loss, mean over all elements, shape [1]."""
    return torch.nn.functional.smooth_l1_loss(x, y, reduction='mean', beta=beta).reshape(1)
