# Golden of the Tilecraft suite task `softsign`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def softsign(x: torch.Tensor):
    """F.softsign."""
    return torch.nn.functional.softsign(x)
