# Golden of the Tilecraft starter task `var_last`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def var_last(x: torch.Tensor):
    """Unbiased variance (torch's default, N - 1) over the last axis, keepdim."""
    return torch.var(x, dim=-1, keepdim=True)
