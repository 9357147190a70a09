# Golden of the Tilecraft starter task `sum_rows`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def sum_rows(x: torch.Tensor):
    """Row sums, keepdim."""
    return torch.sum(x, dim=-1, keepdim=True)
