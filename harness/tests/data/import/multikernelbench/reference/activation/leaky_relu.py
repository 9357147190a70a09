import torch
import torch.nn as nn

class Model(nn.Module):
    """LeakyReLU with the slope given to forward()."""
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor, negative_slope: float) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope)

batch_size = 3
dim = 33

def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x, 0.1]

def get_init_inputs():
    return []
