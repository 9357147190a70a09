import os
import sys

import torch


def dies(x: torch.Tensor) -> torch.Tensor:
    sys.stderr.write("dies: about to exit\n")
    sys.stderr.flush()
    os._exit(7)
