# Golden of `batch_norm_stats`: the statistics batch normalization computes in training mode, per channel (axis
# 1) over the batch and spatial axes: the mean and the biased variance (what normalizes the batch; the running
# variance update would use the unbiased one). Plain PyTorch (torch 1.13).
import torch


def batch_norm_stats(x: torch.Tensor):
    dims = [0] + list(range(2, x.dim()))
    return x.mean(dim=dims), x.var(dim=dims, unbiased=False)
