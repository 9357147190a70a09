# Golden of `rms_norm_no_weight`: RMSNorm over the last axis without a scale. Plain PyTorch (torch 1.13). The
# harness passes the inputs (upcast to float64) and the attributes by name, and casts the result.
import torch


def rms_norm_no_weight(x: torch.Tensor, eps: float = 1e-6):
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)
