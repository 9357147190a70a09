# Golden of the Tilecraft suite task `global_max_pool2d`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def global_max_pool2d(x: torch.Tensor):
    """Max over H and W of x [N, C, H, W] (or [C, H, W]), kept as 1 x 1: adaptive_max_pool2d(x, 1)."""
    return torch.nn.functional.adaptive_max_pool2d(x, 1)
