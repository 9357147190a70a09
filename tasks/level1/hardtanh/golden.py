# Golden of the Tilecraft suite task `hardtanh`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def hardtanh(x: torch.Tensor, min_val: float = -1.0, max_val: float = 1.0):
    """F.hardtanh."""
    return torch.nn.functional.hardtanh(x, min_val=min_val, max_val=max_val)
