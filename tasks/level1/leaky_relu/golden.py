# Golden of the Tilecraft starter task `leaky_relu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def leaky_relu(x: torch.Tensor, slope: float = 0.01):
    """y = x for x >= 0, slope * x otherwise."""
    return torch.nn.functional.leaky_relu(x, negative_slope=slope)
