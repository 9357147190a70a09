# Golden of the Tilecraft suite task `one_hot_smooth`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (int32 indices widened) and the attributes by name, and casts the result to the output dtypes.
import torch
import torch.nn.functional as F


def one_hot_smooth(index: torch.Tensor, num_classes: int = 16, eps: float = 0.1):
    """y = one_hot(index, C) * (1 - eps) + eps / C, float32 (label smoothing targets)"""
    c = int(num_classes)
    oh = F.one_hot(index.long(), c).to(torch.float64)
    return oh * (1.0 - eps) + eps / c
