import torch


def get_inputs(param, device=None):
    shapes = eval(param['input_shape'])
    dtype = getattr(torch, param['dtype'])
    return [[torch.randn(s, dtype=dtype, device=device) for s in shapes]]


def get_init_inputs(param, device=None):
    return []
