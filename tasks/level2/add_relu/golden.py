# Golden of the Tilecraft suite task `add_relu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def add_relu(x: torch.Tensor, y: torch.Tensor):
    """z = relu(x + y), elementwise; inf in x stays inf (or 0 when negative)."""
    return torch.relu(x + y)
