# Golden of the Tilecraft suite task `kl_div_loss`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def kl_div_loss(x: torch.Tensor, target: torch.Tensor):
    """KL divergence, reduction='batchmean' (sum over all elements divided by x.size(0)), shape [1]."""
    return torch.nn.functional.kl_div(x, target, reduction='batchmean').reshape(1)
