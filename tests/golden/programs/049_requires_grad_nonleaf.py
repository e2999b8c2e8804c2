# requires_grad can only be changed on leaves; requires_grad_() returns self.
import torch

x = torch.tensor([1.0, 2.0])
r = x.requires_grad_()
print(r is x, x.requires_grad, x.is_leaf)
y = x * 2
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print(type(e).__name__, str(e))
try:
    y.requires_grad = False
except RuntimeError as e:
    print(type(e).__name__, str(e))
y.requires_grad_(True)  # setting True on a non-leaf that already requires grad is fine
print(y.requires_grad)
x.requires_grad_(False)
print(x.requires_grad, y.requires_grad)
z = torch.ones(2)
z.requires_grad = True
print(z)
