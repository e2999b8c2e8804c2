# backward on a scalar with an explicit gradient scales the result; float64 leaves get float64 grads.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(torch.tensor(0.5))
print(x.grad)
d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
(d ** 2).sum().backward()
print(d.grad, d.grad.dtype)
torch.autograd.backward([(x * 3).sum()], [torch.tensor(2.0)])
print(x.grad)
torch.autograd.backward((x * 1).sum())
print(x.grad)
