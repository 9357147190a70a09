# Golden of the Tilecraft suite task `tanh`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch
import torch.nn.functional as F


def tanh(x: torch.Tensor):
    """y = tanh(x)"""
    return torch.tanh(x)
