import torch
import torch.nn as nn

class Model(nn.Module):
    """ReLU, then a scale given at construction."""
    def __init__(self, scale):
        super(Model, self).__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x) * self.scale

batch_size = 16
dim = 67
scale = 2.5

def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]

def get_init_inputs():
    return [scale]
