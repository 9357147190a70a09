# Golden of the Tilecraft suite task `logsigmoid`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def logsigmoid(x: torch.Tensor):
    """F.logsigmoid."""
    return torch.nn.functional.logsigmoid(x)
