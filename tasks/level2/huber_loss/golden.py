# Golden of the Tilecraft suite task `huber_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def huber_loss(x: torch.Tensor, y: torch.Tensor, delta: float = 1.0):
    """Huber loss, mean over all elements, shape [1]."""
    return torch.nn.functional.huber_loss(x, y, reduction='mean', delta=delta).reshape(1)
