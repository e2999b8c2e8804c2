# In-place ops on non-leaf tensors are recorded in the graph.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
print(y.grad_fn.name(), y._version)
y.add_(1)
print(y.grad_fn.name(), y._version)
y.mul_(2)
print(y.grad_fn.name(), y._version)
y.sub_(1)
print(y.grad_fn.name())
y.div_(4)
print(y.grad_fn.name())
y += x
print(y.grad_fn.name())
y *= x
print(y.grad_fn.name())
y -= 1
y /= 2
print(y, y._version)
y.sum().backward()
print(x.grad)
x.grad = None
z = x.sin()  # sin saves its input, not its output
z.add_(torch.ones(3))
z.sum().backward()
print(z.grad_fn.name(), x.grad)
