import torch

def task_good(x, gamma, bias=None, eps=1e-6, mode="a"):
    return x, x
