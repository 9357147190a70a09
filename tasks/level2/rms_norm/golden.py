# Golden of the Tilecraft starter task `rms_norm`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def rms_norm(x: torch.Tensor, gamma: torch.Tensor, eps: float = 1e-6):
    """RMSNorm over the last axis."""
    return x * torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True) + eps) * gamma
