# Golden of the Tilecraft starter task `add`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def add(x: torch.Tensor, y: torch.Tensor):
    """z = x + y"""
    return x + y
