# Assigning None to .grad resets it; the next backward starts from scratch.
import torch

x = torch.tensor([2.0, 4.0], requires_grad=True)
(x * x).sum().backward()
print(x.grad)
x.grad = None
print(x.grad)
(x * x * x).sum().backward()
print(x.grad)
# .grad can also be assigned a tensor of the right shape, and accumulates on top
x.grad = torch.tensor([100.0, 200.0])
x.sum().backward()
print(x.grad)
try:
    x.grad = torch.zeros(3)
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(x.grad)
