from typing import List

import torch


def with_inputs_py(offsets: torch.Tensor, xs: List[torch.Tensor]) -> torch.Tensor:
    return offsets + len(xs)
