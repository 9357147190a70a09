# Golden of the Tilecraft suite task `upsample_nearest1d`: plain PyTorch (runs under torch 1.13). The harness
# passes the inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def upsample_nearest1d(x: torch.Tensor):
    """Nearest-neighbour upsampling by 2 along the last axis of x [N, C, L]: y [N, C, 2L], y[..., j] = x[..., j // 2]."""
    return torch.nn.functional.interpolate(x, scale_factor=2, mode="nearest")
