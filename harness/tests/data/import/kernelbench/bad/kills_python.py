import os
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return x

def get_inputs():
    os._exit(7)

def get_init_inputs():
    return []
