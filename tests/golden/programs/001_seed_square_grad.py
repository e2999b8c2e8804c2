# Seed 000: the gradient of x**2 at x = 2 lands in x.grad.
import torch

x = torch.tensor(2.0, requires_grad=True)
print("before backward:", x.grad)
y = x ** 2
print(y)
y.backward()
print(x.grad)
print(x.grad.shape, x.grad.dtype, x.grad.requires_grad)
