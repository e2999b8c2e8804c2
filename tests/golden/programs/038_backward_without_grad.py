# backward on a tensor that does not require grad raises.
import torch

c = torch.tensor(3.0)
try:
    c.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e))
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = (x * x).sum()
print(y.requires_grad, y.grad_fn)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e))
d = (x.detach() * 2).sum()
try:
    d.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e))
try:
    torch.autograd.grad(d, [x])
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(x.grad)
