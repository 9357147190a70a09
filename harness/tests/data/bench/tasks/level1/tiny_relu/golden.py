import torch


def tiny_relu(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x)
