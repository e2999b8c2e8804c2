# Source: pytorch/tutorials, beginner_source/former_torchies/autograd_tutorial.py
#   ("PyTorch for Former Torch Users": Autograd)
# Edits: torch.manual_seed(0) added (unseeded); the `.to(requires_grad=True)` cell, which
#   PyTorch 2.13 refuses, runs in a try that prints its error, then the same cell with
#   requires_grad_() continues it.
import torch
torch.manual_seed(0)

x = torch.ones(2, 2, requires_grad=True)
print(x)

print(x.data)

print(x.grad)

print(x.grad_fn)  # we've created x ourselves

y = x + 2
print(y)

print(y.grad_fn)

z = y * y * 3
out = z.mean()

print(z, out)

a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
try:
    a = a.to(requires_grad=True)
except TypeError as e:
    print(e)
a = a.requires_grad_()
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)

out.backward()
print(x.grad)

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
print(x.grad)

z = y * y
print(z)

gradient = torch.randn(2, 2)

y.backward(gradient)

print(x.grad)

print(x.requires_grad)
print((x ** 2).requires_grad)

with torch.no_grad():
	print((x ** 2).requires_grad)
