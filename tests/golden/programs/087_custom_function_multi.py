# A custom Function with two tensor inputs and a non-tensor argument.
import torch


class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.save_for_backward(a, b)
        ctx.scale = scale
        return a * b * scale

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b * ctx.scale, g * a * ctx.scale, None


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = ScaledMul.apply(a, b, 0.5)
print(out, out.grad_fn.name())
out.sum().backward()
print(a.grad, b.grad)
a.grad = None
c = torch.tensor([5.0, 6.0])
out2 = ScaledMul.apply(a, c, 2.0)
out2.sum().backward()
print(a.grad, c.grad)
# used inside a bigger graph
a.grad = None
z = (ScaledMul.apply(a * 2, b, 1.0) + a).sum()
z.backward()
print(a.grad, b.grad)
