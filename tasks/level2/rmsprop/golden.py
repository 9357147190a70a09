# Golden of `rmsprop`: torch.optim.RMSprop's update (torch/optim/rmsprop.py, _single_tensor_rmsprop, momentum=0,
# centered=False, maximize=False), with the squared-gradient average passed in and returned. Plain PyTorch
# (torch 1.13).
import torch


def rmsprop(param: torch.Tensor, grad: torch.Tensor, square_avg: torch.Tensor, lr: float = 0.01, alpha: float = 0.99,
            eps: float = 1e-8, weight_decay: float = 0.0):
    if weight_decay != 0:
        grad = grad + weight_decay * param
    s = square_avg * alpha + grad * grad * (1 - alpha)
    avg = s.sqrt() + eps
    return param - lr * grad / avg, s
