# Golden of the Tilecraft suite task `token_pos_embedding`: plain PyTorch (runs under torch 1.13). The harness
# passes the inputs (floats upcast to float64, int32 indices widened) and casts the result to the output dtypes.
import torch
import torch.nn.functional as F


def token_pos_embedding(ids: torch.Tensor, wte: torch.Tensor, wpe: torch.Tensor):
    """out = wte[ids] + wpe[:S] (broadcast over the batch)"""
    s = ids.shape[-1]
    return F.embedding(ids.long(), wte) + wpe[:s]
