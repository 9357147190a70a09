# Golden of `sgd_momentum`: the update torch.optim.SGD applies (torch/optim/sgd.py, _single_tensor_sgd) for
# nesterov=False and a momentum buffer that exists (not the first step): d_p = grad + weight_decay * param;
# buf = momentum * buf + (1 - dampening) * d_p; param = param - lr * buf. Plain PyTorch (torch 1.13).
import torch


def sgd_momentum(param: torch.Tensor, grad: torch.Tensor, momentum_buf: torch.Tensor, lr: float = 0.01,
                 momentum: float = 0.9, dampening: float = 0.0, weight_decay: float = 0.0):
    d_p = grad + weight_decay * param if weight_decay != 0 else grad
    buf = momentum_buf * momentum + d_p * (1 - dampening)
    return param - lr * buf, buf
