# torch.stack and torch.cat with gradients.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
s = torch.stack([a, b])
print(s, s.shape, s.grad_fn.name())
s1 = torch.stack([a, b], dim=1)
print(s1, s1.shape)
(s * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(a.grad, b.grad)
a.grad = None
b.grad = None
c = torch.cat([a, b, a])
print(c, c.shape, c.grad_fn.name())
(c * torch.arange(6.0)).sum().backward()
print(a.grad, b.grad)
m = torch.cat([torch.ones(1, 2), torch.zeros(2, 2)], dim=0)
print(m)
n = torch.cat((torch.ones(2, 1), torch.zeros(2, 3)), dim=1)
print(n.shape)
try:
    torch.stack([a, torch.ones(3)])
except RuntimeError as e:
    print(type(e).__name__, str(e))
