# Golden of the Tilecraft starter task `layer_norm`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def layer_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5):
    """LayerNorm over the last axis (biased variance)."""
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), gamma, beta, eps)
