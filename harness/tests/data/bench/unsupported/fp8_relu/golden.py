import torch


def fp8_relu(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x)
