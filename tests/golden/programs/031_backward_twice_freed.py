# A second backward through a graph whose saved tensors were freed raises.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(x.grad)
z = x.exp().sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__)
try:
    torch.autograd.grad(z, x)
except RuntimeError as e:
    print(type(e).__name__)
