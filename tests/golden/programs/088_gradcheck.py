# torch.autograd.gradcheck on small float64 functions.
import torch
from torch.autograd import gradcheck


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
y = torch.tensor([1.5, 0.7, -0.4], dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda a: (a.sin() * a.exp()).sum(), (x,)))
print(gradcheck(lambda a, b: a * b + a / (b * b + 1), (x, y)))
print(gradcheck(Square.apply, (x,)))
print(torch.autograd.gradcheck(lambda a: torch.tanh(a) @ torch.sigmoid(a), (x,), eps=1e-6, atol=1e-4))
