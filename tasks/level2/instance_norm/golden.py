# Golden of `instance_norm`: torch.nn.functional.instance_norm without weight, bias or running statistics
# (biased variance over the spatial axes of each (n, c)). Plain PyTorch (torch 1.13).
import torch


def instance_norm(x: torch.Tensor, eps: float = 1e-5):
    return torch.nn.functional.instance_norm(x, eps=eps)
