# no_grad and enable_grad as decorators, with and without parentheses.
import torch


@torch.no_grad()
def double(t):
    print("inside:", torch.is_grad_enabled())
    return t * 2


@torch.no_grad
def triple(t):
    return t * 3


@torch.enable_grad()
def square(t):
    return t * t


x = torch.tensor([1.0, 2.0], requires_grad=True)
print(double(x).requires_grad, triple(x).requires_grad, torch.is_grad_enabled())
print(double.__name__, triple.__name__)
with torch.no_grad():
    s = square(x)
    print(s.requires_grad, s.grad_fn.name(), torch.is_grad_enabled())
    print((x * x).requires_grad)
