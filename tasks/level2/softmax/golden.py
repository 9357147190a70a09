# Golden of the Tilecraft starter task `softmax`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def softmax(x: torch.Tensor):
    """Softmax over the last axis."""
    return torch.softmax(x, dim=-1)
