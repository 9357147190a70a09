import torch
import torch.nn as nn

class Model(nn.Module):
    """Argmax along a dimension: an integer output, so no float16 or bfloat16 variant changes it."""
    def __init__(self, dim):
        super(Model, self).__init__()
        self.dim = dim

    def forward(self, x):
        return torch.argmax(x, dim=self.dim)

def get_inputs():
    return [torch.rand(4, 5, 6)]

def get_init_inputs():
    return [1]
