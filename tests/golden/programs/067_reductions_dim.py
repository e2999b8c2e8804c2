# Reductions along a dimension, keepdim, and the (values, indices) result of max/min.
import torch

x = torch.tensor([[1.0, 4.0, 2.0], [3.0, 0.0, 6.0]], requires_grad=True)
s0 = x.sum(dim=0)
s1 = x.sum(1, keepdim=True)
m = x.mean(dim=1)
mk = x.mean(0, keepdim=True)
print(s0, s1, m, mk, sep="\n")
print(s0.shape, s1.shape, m.shape, mk.shape)
(s0 * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
x.grad = None
r = x.max(dim=1)
print(r)
print(r.values, r.indices)
vals, idx = x.min(0)
print(vals, idx)
(r.values.sum() + vals.sum()).backward()
print(x.grad)
x.grad = None
mk2 = x.max(dim=0, keepdim=True)
print(mk2.values.shape, mk2.indices)
mk2.values.sum().backward()
print(x.grad)
print(x.sum(dim=(0, 1)), x.sum(-1))
