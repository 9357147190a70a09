import time
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return x

def get_inputs():
    time.sleep(600)

def get_init_inputs():
    return []
