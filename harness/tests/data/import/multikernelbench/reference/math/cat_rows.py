import torch
import torch.nn as nn

class Model(nn.Module):
    """Concatenates a list of tensors along a dimension: a tensor-list input."""
    def forward(self, tensors, dim):
        return torch.cat(tensors, dim=dim)

def get_inputs():
    return [[torch.rand(2, 5), torch.rand(3, 5), torch.rand(1, 5)], 0]

def get_init_inputs():
    return []
