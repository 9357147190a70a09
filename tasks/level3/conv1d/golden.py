# Golden of the Tilecraft suite task `conv1d`: plain PyTorch (runs under torch 1.13). The harness passes the inputs
# (upcast to float64) and casts the result to the output dtypes.
import torch


def conv1d(x: torch.Tensor, w: torch.Tensor):
    """y = conv1d(x, w.permute(1, 2, 0)): w is tap-major [K, C_out, C_in]; stride 1, no padding, no bias."""
    return torch.nn.functional.conv1d(x, w.permute(1, 2, 0))
