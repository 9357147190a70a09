# Golden of the Tilecraft suite task `relu6`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def relu6(x: torch.Tensor):
    """F.relu6."""
    return torch.nn.functional.relu6(x)
