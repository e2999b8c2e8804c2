# Seed 002: an intermediate keeps its gradient only after retain_grad().
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x * x
z = y * 3
print(y.retains_grad)
y.retain_grad()
print(y.retains_grad)
z.backward()
print("y.grad:", y.grad)
print("x.grad:", x.grad)
print("z.retains_grad:", z.retains_grad, "x.retains_grad:", x.retains_grad)
