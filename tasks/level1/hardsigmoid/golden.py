# Golden of the Tilecraft suite task `hardsigmoid`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def hardsigmoid(x: torch.Tensor):
    """F.hardsigmoid: relu6(x + 3) / 6."""
    return torch.nn.functional.hardsigmoid(x)
