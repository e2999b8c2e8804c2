# What retain_grad() stores includes the effect of tensor hooks, whether they
# were registered before or after retain_grad().
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)

y = x * 2
y.register_hook(lambda g: g * 10)
y.retain_grad()
y.sum().backward()
print("hook before retain_grad:", y.grad, x.grad)

x.grad = None
z = x * 2
z.retain_grad()
z.register_hook(lambda g: g * 10)
z.sum().backward()
print("hook after retain_grad:", z.grad, x.grad)

x.grad = None
w = x * 2
w.retain_grad()
w.register_hook(lambda g: print("hook sees", g))
w.register_hook(lambda g: g + 100)
w.sum().backward()
print("observer + adder:", w.grad, x.grad)
