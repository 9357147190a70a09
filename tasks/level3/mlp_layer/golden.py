# Golden of the Tilecraft suite task `mlp_layer`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and casts the result to the output dtypes.
import torch


def mlp_layer(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor):
    """y = silu(x @ w + bias): one linear layer of an MLP with its activation."""
    return torch.nn.functional.silu(torch.matmul(x, w) + bias)
