# Golden of `l2_normalize`: torch.nn.functional.normalize over the last axis (p=2). Plain PyTorch (torch 1.13).
# The harness passes the inputs (upcast to float64) and the attributes by name, and casts the result.
import torch


def l2_normalize(x: torch.Tensor, eps: float = 1e-12):
    return torch.nn.functional.normalize(x, p=2.0, dim=-1, eps=eps)
