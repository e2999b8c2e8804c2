# An in-place change to a tensor that no backward formula saved is fine.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = x * 2
b = a + 1  # add saves nothing
print(a._version)
a.mul_(10)
print(a._version, a.grad_fn.name())
b.sum().backward()
print(x.grad)

x.grad = None
h = x.sum()  # sum saves only the shape
c = x * 1
c.add_(5)
h.backward()
print(x.grad)

# the modified tensor itself used afterwards: gradient goes through the in-place op
x.grad = None
d = x * 2
d.mul_(3)
d.sum().backward()
print(d.grad_fn.name(), x.grad)
