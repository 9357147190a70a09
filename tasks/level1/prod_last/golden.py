# Golden of the Tilecraft starter task `prod_last`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def prod_last(x: torch.Tensor):
    """Row products, keepdim."""
    return torch.prod(x, dim=-1, keepdim=True)
