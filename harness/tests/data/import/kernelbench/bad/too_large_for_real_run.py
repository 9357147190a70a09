import torch
import torch.nn as nn

class Model(nn.Module):
    """nonzero() cannot run on the meta device, and 400 x 400 is over the test's budget of 100000 elements."""
    def forward(self, x):
        return torch.nonzero(x > 0.5)

def get_inputs():
    return [torch.rand(400, 400)]

def get_init_inputs():
    return []
