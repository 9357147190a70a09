# Golden of the Tilecraft suite task `avg_pool2d`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def avg_pool2d(x: torch.Tensor):
    """2 x 2 avg pooling with stride 2 over x [N, C, H, W] (H, W even): y [N, C, H / 2, W / 2]."""
    return torch.nn.functional.avg_pool2d(x, kernel_size=2, stride=2)
