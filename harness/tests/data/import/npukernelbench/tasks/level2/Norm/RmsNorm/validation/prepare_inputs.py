import torch


def get_inputs(param, device=None):
    shape = eval(param['shape'])
    dtype = getattr(torch, param['dtype'])
    x = torch.randn(shape, dtype=dtype, device=device)
    gamma = torch.rand(shape[-1:], dtype=dtype, device=device)
    return [x, gamma]


def get_init_inputs(param, device=None):
    return [float(param['eps'])]
