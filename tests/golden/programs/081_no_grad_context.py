# torch.no_grad() as a context manager; enable_grad inside it; is_grad_enabled.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    y = x * 2
    print(y, y.requires_grad, y.is_leaf, y.grad_fn)
    with torch.enable_grad():
        print(torch.is_grad_enabled())
        z = x * 2
        print(z, z.requires_grad)
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
try:
    with torch.no_grad():
        raise ValueError("boom")
except ValueError as e:
    print(type(e).__name__, str(e), torch.is_grad_enabled())
with torch.no_grad():
    w = x + 0
    print(w.requires_grad, (w * x).requires_grad)
print((w * x).requires_grad)
