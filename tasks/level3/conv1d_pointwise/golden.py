# Golden of the Tilecraft suite task `conv1d_pointwise`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def conv1d_pointwise(x: torch.Tensor, w: torch.Tensor):
    """y = conv1d(x, w[:, :, None]): kernel size 1, stride 1, no padding, no bias."""
    return torch.nn.functional.conv1d(x, w.unsqueeze(-1))
