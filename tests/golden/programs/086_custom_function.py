# A custom autograd.Function: forward/backward/ctx.save_for_backward/apply.
import torch
from torch.autograd import Function


class Cube(Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp ** 3

    @staticmethod
    def backward(ctx, grad_out):
        (inp,) = ctx.saved_tensors
        print("Cube.backward got", grad_out)
        return grad_out * 3 * inp ** 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(y)
print(y.grad_fn.name(), type(y.grad_fn).__name__, y.requires_grad, y.is_leaf)
print([(f.name() if f is not None else None, i) for f, i in y.grad_fn.next_functions])
(y * torch.tensor([1.0, 10.0])).sum().backward()
print(x.grad)
with torch.no_grad():
    n = Cube.apply(x)
print(n.requires_grad, n.grad_fn)
c = Cube.apply(torch.tensor([2.0]))
print(c, c.requires_grad)
