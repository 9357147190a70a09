# Golden of the Tilecraft suite task `hinge_embedding_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def hinge_embedding_loss(x: torch.Tensor, target: torch.Tensor, margin: float = 1.0):
    """F.hinge_embedding_loss, reduction='mean', shape [1]; target holds -1 and 1 (inputs.py)."""
    return torch.nn.functional.hinge_embedding_loss(x, target, margin=margin, reduction='mean').reshape(1)
