# Golden of the Tilecraft suite task `one_hot`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (int32 indices widened) and the attributes by name, and casts the result to the output dtypes.
import torch
import torch.nn.functional as F


def one_hot(index: torch.Tensor, num_classes: int = 16):
    """y = F.one_hot(index, num_classes), int64"""
    return F.one_hot(index.long(), int(num_classes))
