# Golden of the Tilecraft suite task `swiglu`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def swiglu(a: torch.Tensor, b: torch.Tensor):
    """y = silu(a) * b: the SwiGLU of LLaMA's MLP with its two halves passed as two tensors."""
    return torch.nn.functional.silu(a) * b
