# Golden of the Tilecraft suite task `attention_scores_softmax`: plain PyTorch (runs under torch 1.13). The harness
# passes the inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def attention_scores_softmax(q: torch.Tensor, k: torch.Tensor, scale: float = 0.125):
    """p = softmax(q @ k^T * scale) over the last axis: one attention head's probabilities."""
    return torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * scale, dim=-1)
