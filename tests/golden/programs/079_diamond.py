# Diamond-shaped graphs: a tensor reaches the output along several paths.
import torch

a = torch.tensor(3.0, requires_grad=True)
b = a + a
c = b * b
c.backward()
print(b, c, a.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
y.sum().backward()
print(x.grad)
x.grad = None
p = x.exp()
q = x.sin()
r = p * q + p
r.sum().backward()
print(x.grad)
