# Source: rasbt/stat453-deep-learning-ss21 L06/code/pytorch-autograd.ipynb at ce26196 (Sebastian
#   Raschka, STAT 453 Deep Learning, lecture 6: Autograd Example)
# Edits: the notebook's code cells in order; the %watermark cell is removed; a cell's displayed
#   last expression is printed with print().

import torch
from torch.autograd import grad
import torch.nn.functional as F

x = torch.tensor([3.])
w = torch.tensor([2.], requires_grad=True)
b = torch.tensor([1.], requires_grad=True)
a = F.relu(x*w + b)

print(a)

print(grad(a, w, retain_graph=True))

print(grad(a, b))

x = torch.tensor([3.])
w = torch.tensor([2.], requires_grad=True)
b = torch.tensor([1.], requires_grad=True)

def my_relu(z):
    if z > 0.:
        return z
    else:
        z[:] = 0.
        return z

a = my_relu(x*w + b)
print(grad(a, w))

x = torch.tensor([-1.])
w = torch.tensor([1.], requires_grad=True)
b = torch.tensor([1.], requires_grad=True)

def my_relu(z):
    if z > 0.:
        return z
    else:
        z[:] = 0.
        return z

a = F.relu(x*w + b)
print(grad(a, w, retain_graph=False))
