# Seed 003: gradients accumulate; y = x**2 then z = x**3 at x = 1 gives 2 then 5.
import torch

x = torch.ones(1, requires_grad=True)
print(x)
y = x ** 2
z = x ** 3
y.backward()
print(x.grad)
z.backward()
print(x.grad)
