# Seed 002: `x += 1` on a leaf that requires grad is refused.
import torch

x = torch.tensor(2.0, requires_grad=True)
try:
    x += 1
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(x, x._version)
# the safe way: work on a copy
x2 = x.clone()
x2 += 1
print(x2)
y = x2 * x2
y.backward()
print(x.grad)
