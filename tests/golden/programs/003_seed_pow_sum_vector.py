# Seed 002: a vector leaf, y = sum(x**2), dy/dx = 2x; .grad is None before backward.
import torch

v = torch.tensor([2.0, 3.0], requires_grad=True)
print(v)
print("grad before:", v.grad)
s = v.pow(2).sum()
print(s)
print("grad still before:", v.grad)
s.backward()
print("grad after:", v.grad)
print(v.grad.shape == v.shape)
