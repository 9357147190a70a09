import torch


def _check(x):
    raise ValueError("bad golden: x has %d elements" % x.numel())


def raises(x: torch.Tensor) -> torch.Tensor:
    _check(x)
    return x
