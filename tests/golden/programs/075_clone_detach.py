# clone() stays in the graph; detach() leaves it and shares data; detach_().
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = x.clone()
print(c, c.is_leaf, c.grad_fn.name())
(c * 3).sum().backward()
print(x.grad)
d = x.detach()
print(d, d.requires_grad, d.is_leaf, d.grad_fn)
d[0] = 100.0
print("x after writing through detach:", x)
with torch.no_grad():
    x[0] = 1.0
y = x * 2
y.detach_()
print(y, y.requires_grad, y.is_leaf, y.grad_fn)
z = x * x + x.detach() * 10
x.grad = None
z.sum().backward()
print(x.grad)
e = x.clone().detach()
e += 1
print(e, x)
