# Golden of the Tilecraft suite task `avg_pool1d`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def avg_pool1d(x: torch.Tensor, kernel_size: int = 2):
    """Average pooling over the last axis, kernel = stride = kernel_size, no padding."""
    k = int(kernel_size)
    return torch.nn.functional.avg_pool1d(x, kernel_size=k, stride=k)
