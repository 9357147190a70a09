from typing import Optional

import torch


def optional_bias(x: torch.Tensor, bias: Optional[torch.Tensor] = None, scale: float = 2.0) -> torch.Tensor:
    y = x * scale
    if bias is not None:
        y = y + bias
    return y
