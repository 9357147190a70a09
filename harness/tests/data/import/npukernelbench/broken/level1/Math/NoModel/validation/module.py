import torch


class Reference(torch.nn.Module):
    def forward(self, x):
        return x
