# Golden of the Tilecraft suite task `index_select_last`: plain PyTorch (runs under torch 1.13). The harness
# passes the inputs (floats upcast to float64, int32 indices widened) and casts the result to the output dtypes.
import torch


def index_select_last(x: torch.Tensor, index: torch.Tensor):
    """y = x.index_select(-1, index)"""
    return torch.index_select(x, x.dim() - 1, index.long())
