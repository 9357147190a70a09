import torch
import torch_npu
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, eps):
        super(Model, self).__init__()
        self.eps = eps

    def forward(self, x, gamma):
        rms = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * rms * gamma
