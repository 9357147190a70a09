# Golden of the Tilecraft suite task `lp_pool1d`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def lp_pool1d(x: torch.Tensor, kernel_size: int = 2):
    """torch.nn.functional.lp_pool1d with norm_type 2, kernel = stride = kernel_size: the L2 norm of each window."""
    k = int(kernel_size)
    return torch.nn.functional.lp_pool1d(x, 2.0, k, stride=k)
