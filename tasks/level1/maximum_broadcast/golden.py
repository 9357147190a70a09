# Golden of the Tilecraft suite task `maximum_broadcast`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def maximum_broadcast(x: torch.Tensor, w: torch.Tensor):
    """y = torch.maximum(x, w), w of shape [N] broadcast over the leading dims of x [..., N]."""
    return torch.maximum(x, w)
