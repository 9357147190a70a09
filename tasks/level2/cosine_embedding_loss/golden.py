# Golden of the Tilecraft suite task `cosine_embedding_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def cosine_embedding_loss(x1: torch.Tensor, x2: torch.Tensor, target: torch.Tensor, margin: float = 0.0):
    """F.cosine_embedding_loss over the rows of [B, D] pairs, reduction='mean', shape [1]; target [B, 1] of -1
    and 1 (inputs.py), flattened to torch's [B]."""
    return torch.nn.functional.cosine_embedding_loss(x1, x2, target.reshape(-1), margin=margin,
                                                     reduction='mean').reshape(1)
