# Golden of the Tilecraft suite task `depthwise_conv2d`: plain PyTorch (runs under torch 1.13). The harness passes
# the inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def depthwise_conv2d(x: torch.Tensor, w: torch.Tensor):
    """y = conv2d(x, w[:, None], groups=C): one KH x KW filter per channel, stride 1, no padding, no bias."""
    return torch.nn.functional.conv2d(x, w.unsqueeze(1), groups=x.shape[1])
