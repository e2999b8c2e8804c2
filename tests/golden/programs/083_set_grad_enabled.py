# torch.set_grad_enabled as a context manager and as a function.
import torch

x = torch.tensor([1.0], requires_grad=True)
for mode in (False, True):
    with torch.set_grad_enabled(mode):
        y = x * 2
        print(mode, torch.is_grad_enabled(), y.requires_grad)
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
with torch.no_grad():
    with torch.set_grad_enabled(True):
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
