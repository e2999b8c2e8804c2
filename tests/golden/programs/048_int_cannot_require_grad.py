# Only floating point (and complex) tensors can require gradients.
import torch

try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as e:
    print(type(e).__name__, str(e))
i = torch.tensor([1, 2, 3])
try:
    i.requires_grad_()
except RuntimeError as e:
    print(type(e).__name__, str(e))
try:
    i.requires_grad = True
except RuntimeError as e:
    print(type(e).__name__, str(e))
b = torch.tensor([True, False])
try:
    b.requires_grad_(True)
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(i.requires_grad, i.dtype)
i.requires_grad_(False)
print(i.requires_grad)
f = i.float().requires_grad_()
print(f, f.dtype)
try:
    torch.arange(3, requires_grad=True)
except RuntimeError as e:
    print(type(e).__name__, str(e))
