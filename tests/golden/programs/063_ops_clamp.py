# clamp with min and/or max; the gradient passes where the input is inside [min, max], bounds included.
import torch

x = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0], requires_grad=True)
for label, fn in [
    ("clamp(-1, 2)", lambda: x.clamp(-1.0, 2.0)),
    ("clamp(min=0)", lambda: x.clamp(min=0.0)),
    ("clamp(max=1)", lambda: torch.clamp(x, max=1.0)),
    ("clamp(min=1, max=1)", lambda: x.clamp(min=1.0, max=1.0)),
]:
    x.grad = None
    out = fn()
    out.sum().backward()
    print(label, out, x.grad)
