# + - * / with tensors and Python numbers, including reflected forms.
import torch

x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
y = torch.tensor([2.0, 0.5, -1.0], requires_grad=True)
exprs = {
    "x + y": lambda: x + y,
    "x - y": lambda: x - y,
    "x * y": lambda: x * y,
    "x / y": lambda: x / y,
    "x + 2": lambda: x + 2,
    "2 + x": lambda: 2 + x,
    "x - 2": lambda: x - 2,
    "2 - x": lambda: 2 - x,
    "x * 3": lambda: x * 3,
    "3 * x": lambda: 3 * x,
    "x / 4": lambda: x / 4,
    "4 / x": lambda: 4 / x,
    "-x": lambda: -x,
}
for label, fn in exprs.items():
    x.grad = None
    y.grad = None
    out = fn()
    out.sum().backward()
    print(f"{label}: {out.detach()} {out.grad_fn.name()} dx={x.grad} dy={y.grad}")
print(torch.add(x, y, alpha=2))
print(torch.sub(x, y), torch.mul(x, 2), torch.div(x, 2))
