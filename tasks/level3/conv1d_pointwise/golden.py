# Golden of the Tilecraft suite task `conv1d_pointwise`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def conv1d_pointwise(x: torch.Tensor, w: torch.Tensor):
    """1x1 conv1d, NCL layout, weights [C_out, C_in, 1]."""
    return torch.nn.functional.conv1d(x, w)
