# Golden of the Tilecraft starter task `l1_norm_last`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def l1_norm_last(x: torch.Tensor):
    """Row L1 norms (torch.linalg.norm with ord=1 along -1), keepdim."""
    return torch.linalg.norm(x, ord=1, dim=-1, keepdim=True)
