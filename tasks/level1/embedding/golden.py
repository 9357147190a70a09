# Golden of the Tilecraft suite task `embedding`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (floats upcast to float64, int32 indices widened) and casts the result to the output dtypes.
import torch
import torch.nn.functional as F


def embedding(ids: torch.Tensor, table: torch.Tensor):
    """out = table[ids]"""
    return F.embedding(ids.long(), table)
