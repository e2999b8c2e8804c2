# Powers: tensor ** number, number ** tensor, tensor ** tensor, torch.pow.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = torch.tensor([2.0, 1.0, 0.5], requires_grad=True)
for label, fn in [
    ("x ** 2", lambda: x ** 2),
    ("x ** 0.5", lambda: x ** 0.5),
    ("x ** -1", lambda: x ** -1),
    ("x ** 0", lambda: x ** 0),
    ("2 ** x", lambda: 2 ** x),
    ("x ** e", lambda: x ** e),
    ("pow(x, 3)", lambda: torch.pow(x, 3)),
    ("x.pow(e)", lambda: x.pow(e)),
]:
    x.grad = None
    e.grad = None
    out = fn()
    out.sum().backward()
    print(f"{label}: {out.detach()} {out.grad_fn.name()} dx={x.grad} de={e.grad}")
