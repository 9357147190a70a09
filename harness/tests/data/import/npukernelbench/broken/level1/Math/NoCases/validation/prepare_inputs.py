import torch

from framework.utils import check_precision


def get_inputs(param, device=None):
    shape = tuple(int(x) for x in eval(param.get('shape', '[1]')))
    dtype = getattr(torch, param.get('dtype', 'float16'))
    return (torch.abs(torch.randn(shape, device=device, dtype=dtype) * 10 + 0.01),)


def get_init_inputs(param, device=None):
    return []
