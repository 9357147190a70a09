import torch
import torch.nn as nn

class Model(nn.Module):
    """A linear layer, an extra bias, a sigmoid: parameters become inputs of the task."""
    def __init__(self, in_features, out_features, bias_shape):
        super(Model, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return torch.sigmoid(self.linear(x) + self.bias)

batch_size = 8
in_features = 32
out_features = 24
bias_shape = (out_features,)

def get_inputs():
    return [torch.rand(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features, bias_shape]
