# Golden of the Tilecraft suite task `embedding_bag`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (floats upcast to float64, int32 indices widened) and casts the result to the output dtypes.
import torch
import torch.nn.functional as F


def embedding_bag(ids: torch.Tensor, table: torch.Tensor):
    """out[b] = mean over k of table[ids[b, k]] (F.embedding_bag, mode='mean', 2-D ids)"""
    return F.embedding_bag(ids.long(), table, mode="mean")
