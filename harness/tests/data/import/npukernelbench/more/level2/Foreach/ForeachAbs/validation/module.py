from typing import List

import torch
import torch_npu
import kernel_gen_ops


class Model(torch.nn.Module):
    def forward(self, inputs: List[torch.Tensor]) -> List[torch.Tensor]:
        return [torch.abs(t) for t in inputs]
