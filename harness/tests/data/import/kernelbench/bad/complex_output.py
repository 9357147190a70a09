import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.view_as_complex(x)

def get_inputs():
    return [torch.rand(4, 2)]

def get_init_inputs():
    return []
