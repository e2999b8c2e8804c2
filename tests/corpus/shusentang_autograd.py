# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter02_prerequisite/2.3_autograd.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 2.3
#   Automatic differentiation)
# Edits: torch.__version__ is not printed; torch.manual_seed(0) added (unseeded); the cell whose
#   line is commented out because it errors (`y2.backward()`) runs inside try/except that prints
#   the error as Python shows its last line.
import torch

torch.manual_seed(0)

x = torch.ones(2, 2, requires_grad=True)
print(x)
print(x.grad_fn)

y = x + 2
print(y)
print(y.grad_fn)

print(x.is_leaf, y.is_leaf)

z = y * y * 3
out = z.mean()
print(z, out)

a = torch.randn(2, 2) # default requires_grad = False
a = ((a * 3) / (a - 1))
print(a.requires_grad) # False
a.requires_grad_(True)
print(a.requires_grad) # True
b = (a * a).sum()
print(b.grad_fn)

out.backward() # same as out.backward(torch.tensor(1.))
print(x.grad)

# backward again: grad accumulates
out2 = x.sum()
out2.backward()
print(x.grad)

out3 = x.sum()
x.grad.data.zero_()
out3.backward()
print(x.grad)

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = 2 * x
z = y.view(2, 2)
print(z)

v = torch.tensor([[1.0, 0.1], [0.01, 0.001]], dtype=torch.float)
z.backward(v)

print(x.grad)

x = torch.tensor(1.0, requires_grad=True)
y1 = x ** 2
with torch.no_grad():
    y2 = x ** 3
y3 = y1 + y2

print(x, x.requires_grad)
print(y1, y1.requires_grad)
print(y2, y2.requires_grad)
print(y3, y3.requires_grad)

y3.backward()
print(x.grad)

try:
    y2.backward() # errors: RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn
except RuntimeError as error:
    print(f"RuntimeError: {error}")

x = torch.ones(1,requires_grad=True)

print(x.data) # still a tensor
print(x.data.requires_grad) # but outside the graph

y = 2 * x
x.data *= 100 # changes only the values, not recorded in the graph

y.backward()
print(x) # changing data changes the tensor
print(x.grad)
