# Golden of the Tilecraft suite task `take_along_dim`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (floats upcast to float64, int32 indices widened) and casts the result to the output dtypes.
import torch


def take_along_dim(x: torch.Tensor, indices: torch.Tensor):
    """out = torch.take_along_dim(x, indices) (dim=None: both flattened), 1-D"""
    return torch.take_along_dim(x, indices.long())
