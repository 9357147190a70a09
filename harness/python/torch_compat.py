"""Functions newer CANN Bench goldens call that PyTorch 1.13 (Debian's python3-torch) lacks.

install() adds each one only where torch does not already have it, so a newer torch keeps its own. Every
function here follows the documented semantics of the torch version that introduced it; one that cannot be
reproduced faithfully is left out (the golden then fails with torch's own AttributeError).
"""
import numbers

import torch
import torch.nn.functional as F


# Set by the worker while it captures a golden's ATen ops: recorder(name, fn, args, kwargs) runs fn and records
# it as the one op `name`, as a device backend runs it (torch_npu's RmsNorm is one kernel), not as the CPU
# decomposition below.
recorder = None


def _one_op(name):
    def wrap(fn):
        def run(*args, **kwargs):
            if recorder is None:
                return fn(*args, **kwargs)
            return recorder(name, fn, args, kwargs)
        run.__name__ = fn.__name__
        run.__doc__ = fn.__doc__
        return run
    return wrap


@_one_op("aten::rms_norm")
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


def _int_indices_supported():
    try:
        torch.zeros(2)[torch.tensor([0], dtype=torch.int32)]
        return True
    except IndexError:
        return False


_NARROW_INT = (torch.int8, torch.int16, torch.int32)


def _widen(index):
    # torch 2.0 accepts int8/int16/int32 index tensors wherever int64 ones go (advanced indexing); 1.13 raises
    # "tensors used as indices must be long, byte or bool tensors". The values are the same in int64.
    if isinstance(index, torch.Tensor):
        return index.long() if index.dtype in _NARROW_INT else index
    if isinstance(index, tuple):
        return tuple(_widen(i) for i in index)
    if isinstance(index, list) and any(isinstance(i, torch.Tensor) for i in index):
        return [_widen(i) for i in index]
    return index


def _install_int_indices():
    get, set_ = torch.Tensor.__getitem__, torch.Tensor.__setitem__

    def __getitem__(self, index):
        return get(self, _widen(index))

    def __setitem__(self, index, value):
        return set_(self, _widen(index), value)

    torch.Tensor.__getitem__ = __getitem__
    torch.Tensor.__setitem__ = __setitem__


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
    if not _int_indices_supported():
        _install_int_indices()
        ADDED.append("int32/int16/int8 index tensors in Tensor[...]")
    for name in ("uint16", "uint32", "uint64"):
        if not hasattr(torch, name):
            setattr(torch, name, _uint_stand_in())
            ADDED.append("torch." + name)
    return list(ADDED)
