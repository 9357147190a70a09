import torch


def rms_norm(x: torch.Tensor, gamma: torch.Tensor, epsilon: float = 1e-6) -> torch.Tensor:
    # torch.nn.functional.rms_norm is new in torch 2.4: on 1.13 it comes from Tilecraft's compat layer.
    return torch.nn.functional.rms_norm(x, gamma.shape, weight=gamma, eps=epsilon)
