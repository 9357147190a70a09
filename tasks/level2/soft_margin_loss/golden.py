# Golden of the Tilecraft suite task `soft_margin_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def soft_margin_loss(x: torch.Tensor, target: torch.Tensor):
    """F.soft_margin_loss, reduction='mean', shape [1]."""
    return torch.nn.functional.soft_margin_loss(x, target, reduction='mean').reshape(1)
