# Golden of `sgd`: the update torch.optim.SGD applies for momentum=0 (torch/optim/sgd.py, _single_tensor_sgd):
# d_p = grad + weight_decay * param; param = param - lr * d_p. Plain PyTorch (torch 1.13).
import torch


def sgd(param: torch.Tensor, grad: torch.Tensor, lr: float = 0.01, weight_decay: float = 0.0):
    d_p = grad + weight_decay * param if weight_decay != 0 else grad
    return param - lr * d_p
