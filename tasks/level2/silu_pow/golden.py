# Golden of the Tilecraft starter task `silu_pow`: plain PyTorch (runs under torch 1.13). The harness passes the
# inputs (upcast to float64) and the attributes by name, and casts the result to the output dtypes.
import torch


def silu_pow(x: torch.Tensor, e: torch.Tensor):
    """Two outputs: y in float32 and z computed from e rounded to float16."""
    silu = torch.nn.functional.silu
    y = silu(x) + torch.sin(x) * torch.cos(e) + torch.erf(x) ** 2 + torch.pow(torch.abs(x) + 1.0, e)
    h = e.to(torch.float16).to(x.dtype)
    z = torch.erf(h) + silu(h)
    return y, z
