"""Functions newer CANN Bench goldens call that PyTorch 1.13 (Debian's python3-torch) lacks.

install() adds each one only where torch does not already have it, so a newer torch keeps its own. Every
function here follows the documented semantics of the torch version that introduced it; one that cannot be
reproduced faithfully is left out (the golden then fails with torch's own AttributeError).
"""
import numbers

import torch
import torch.nn.functional as F


def _rms_norm(input, normalized_shape, weight=None, eps=None):
    # torch 2.4: y = x / sqrt(mean(x^2 over the normalized dims) + eps) * weight; eps None means
    # torch.finfo(x.dtype).eps. Reduced precision types accumulate in float32 (opmath), as torch does.
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (int(normalized_shape),)
    dims = tuple(range(-len(tuple(normalized_shape)), 0))
    if eps is None:
        eps = torch.finfo(input.dtype).eps if input.is_floating_point() else torch.finfo(torch.float32).eps
    compute = input
    if input.dtype in (torch.float16, torch.bfloat16):
        compute = input.float()
    rstd = torch.rsqrt(compute.pow(2).mean(dim=dims, keepdim=True) + eps)
    y = (compute * rstd).to(input.dtype)
    if weight is not None:
        y = y * weight
    return y


def _uint_stand_in():
    # torch 2.3 added uint16/uint32/uint64 as limited "shell" dtypes. Goldens only use them as cast targets
    # of bit patterns; int64 holds every uint32 value exactly, so it stands in for the missing ones.
    return torch.int64


ADDED = []


def install():
    """Adds the missing functions; returns the names added (also kept in ADDED)."""
    if not hasattr(F, "rms_norm"):
        F.rms_norm = _rms_norm
        ADDED.append("torch.nn.functional.rms_norm")
    if not hasattr(torch.nn, "RMSNorm"):
        class RMSNorm(torch.nn.Module):
            def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
                super().__init__()
                if isinstance(normalized_shape, numbers.Integral):
                    normalized_shape = (int(normalized_shape),)
                self.normalized_shape = tuple(normalized_shape)
                self.eps = eps
                self.weight = None
                if elementwise_affine:
                    self.weight = torch.nn.Parameter(torch.ones(self.normalized_shape, device=device, dtype=dtype))

            def forward(self, x):
                return _rms_norm(x, self.normalized_shape, self.weight, self.eps)

        torch.nn.RMSNorm = RMSNorm
        ADDED.append("torch.nn.RMSNorm")
    for name in ("uint16", "uint32", "uint64"):
        if not hasattr(torch, name):
            setattr(torch, name, _uint_stand_in())
            ADDED.append("torch." + name)
    return list(ADDED)
