# Golden of the Tilecraft suite task `hardswish`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def hardswish(x: torch.Tensor):
    """F.hardswish: x * relu6(x + 3) / 6."""
    return torch.nn.functional.hardswish(x)
