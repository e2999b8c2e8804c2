# Seed 002: backward on a vector output needs a gradient argument of the same shape.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e))
print("grad after failed call:", x.grad)
y.backward(torch.tensor([1.0, 1.0]))
print(x.grad)
x.grad = None
y2 = x * 2
y2.backward(torch.tensor([0.5, -1.0]))
print(x.grad)
