import torch


def int_index(x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    # int32 index tensors index since torch 2.0; on 1.13 the compat layer widens them.
    print("int_index: stdout is not the protocol")
    return x[idx]
