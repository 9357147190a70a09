# Golden of `adagrad`: torch.optim.Adagrad's update (torch/optim/adagrad.py, _single_tensor_adagrad,
# maximize=False) at step `step`, with the accumulated squared gradients passed in and returned.
# Plain PyTorch (torch 1.13).
import torch


def adagrad(param: torch.Tensor, grad: torch.Tensor, state_sum: torch.Tensor, lr: float = 0.01,
            lr_decay: float = 0.0, weight_decay: float = 0.0, eps: float = 1e-10, step: int = 1):
    if weight_decay != 0:
        grad = grad + weight_decay * param
    clr = lr / (1 + (step - 1) * lr_decay)
    s = state_sum + grad * grad
    std = s.sqrt() + eps
    return param - clr * grad / std, s
