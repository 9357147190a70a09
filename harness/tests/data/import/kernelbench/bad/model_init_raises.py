import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        raise RuntimeError("bad width %d" % n)

def get_inputs():
    return [torch.rand(2)]

def get_init_inputs():
    return [3]
