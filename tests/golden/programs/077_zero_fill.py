# zero_() and fill_(): on plain tensors, on leaves under no_grad, and on non-leaves.
import torch

t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(t.fill_(2.5), t.zero_(), t)
p = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    r = p.fill_(0.25)
print(r is p, p, p.requires_grad, p.is_leaf)
y = p * 4
y.fill_(7.0)
print(y, y.grad_fn.name())
(y * p).sum().backward()
print(p.grad)
p.grad = None
z = p * 4
z.zero_()
print(z, z.grad_fn.name())
(z + p).sum().backward()
print(p.grad)
i = torch.tensor([1, 2])
i.fill_(9)
print(i)
