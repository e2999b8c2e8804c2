# torch.autograd.grad returns a tuple and leaves .grad untouched.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
out = (x * w).sum()
grads = torch.autograd.grad(out, [x, w])
print(type(grads).__name__, len(grads))
print(grads)
print(x.grad, w.grad)
single = torch.autograd.grad((x ** 2).sum(), x)
print(type(single).__name__, single)
# existing .grad values stay as they are
(x * 5).sum().backward()
print(x.grad)
g = torch.autograd.grad((x * 7).sum(), x)
print(g, x.grad)
print(g[0].requires_grad, g[0].grad_fn)
