# Golden of the Tilecraft suite task `bce_with_logits_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def bce_with_logits_loss(x: torch.Tensor, target: torch.Tensor):
    """F.binary_cross_entropy_with_logits, reduction='mean', shape [1]."""
    return torch.nn.functional.binary_cross_entropy_with_logits(x, target, reduction='mean').reshape(1)
