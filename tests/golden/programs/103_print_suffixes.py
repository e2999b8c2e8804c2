# repr suffixes: requires_grad=True, grad_fn=<...>, dtype=..., and their order.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(x)
print(d)
print(x + 1)
print(d * 2)
print(x.sum())
print(x.mean())
print(x[0])
print(x.view(2, 1))
print(x.exp())
print(d.sum())
print(x.detach())
print(torch.tensor([1, 2], dtype=torch.int16))
print(torch.tensor([1.0], dtype=torch.float16))
print(torch.tensor([1.0, 2.5]).double())
with torch.no_grad():
    print(x * 2)
