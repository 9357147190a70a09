# Golden of the Tilecraft suite task `linear_residual_layer_norm`: plain PyTorch (runs under torch 1.13). The
# harness passes the inputs (upcast to float64) and the attributes by name, and casts the result to the output
# dtypes.
import torch


def linear_residual_layer_norm(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor, residual: torch.Tensor,
                               gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5):
    """y = layer_norm(x @ w + bias + residual) * gamma + beta (a post-LN transformer output block)."""
    h = torch.matmul(x, w) + bias + residual
    return torch.nn.functional.layer_norm(h, (h.shape[-1],), gamma, beta, eps)
