# Golden of the Tilecraft suite task `scale_shift_tanh`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def scale_shift_tanh(x: torch.Tensor, scale: torch.Tensor, shift: torch.Tensor):
    """y = tanh(x * scale + shift), scale and shift of shape [N] broadcast over the rows of x [..., N]."""
    return torch.tanh(x * scale + shift)
