# Assigning into a tensor that does not require grad from one that does.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
buf = torch.zeros(2, 3)
buf[0] = x * 2
buf[1, 1:] = x[:2] ** 2
print(buf)
print(buf.is_leaf, buf.requires_grad, buf.grad_fn.name(), buf._version)
buf.sum().backward()
print(x.grad)

x.grad = None
y = x * 1
y[0] = 10.0  # overwrite: no gradient flows to x[0]
print(y, y.grad_fn.name())
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)

x.grad = None
z = torch.zeros(3)
z[torch.tensor([True, False, True])] = x[1]
print(z)
z.sum().backward()
print(x.grad)
t = torch.zeros(2, 2)
t[:, 0] = torch.tensor([5.0, 6.0])
t[1] = 7
print(t)
