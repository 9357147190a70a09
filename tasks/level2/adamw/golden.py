# Golden of `adamw`: torch.optim.AdamW's update (torch/optim/adamw.py, _single_tensor_adamw, amsgrad=False,
# maximize=False) at step `step`: decoupled weight decay, then Adam's moments and bias corrections. The moment
# buffers are passed in and returned. Plain PyTorch (torch 1.13).
import math

import torch


def adamw(param: torch.Tensor, grad: torch.Tensor, exp_avg: torch.Tensor, exp_avg_sq: torch.Tensor,
          lr: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8, weight_decay: float = 0.01,
          step: int = 1):
    param = param * (1 - lr * weight_decay)
    m = exp_avg * beta1 + grad * (1 - beta1)
    v = exp_avg_sq * beta2 + grad * grad * (1 - beta2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    denom = v.sqrt() / math.sqrt(bias_correction2) + eps
    return param - step_size * m / denom, m, v
