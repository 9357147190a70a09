# Golden of the Tilecraft suite task `upsample_nearest2d`: plain PyTorch (runs under torch 1.13). The harness
# passes the inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def upsample_nearest2d(x: torch.Tensor):
    """Nearest-neighbour upsampling by 2 along H and W of x [N, C, H, W]: y [N, C, 2H, 2W]."""
    return torch.nn.functional.interpolate(x, scale_factor=2, mode="nearest")
