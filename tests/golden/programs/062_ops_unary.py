# Elementwise unary functions: values, grad_fn names and gradients.
import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
fns = [
    ("neg", torch.neg),
    ("abs", torch.abs),
    ("exp", torch.exp),
    ("log", torch.log),
    ("sqrt", torch.sqrt),
    ("sin", torch.sin),
    ("cos", torch.cos),
    ("tanh", torch.tanh),
    ("sigmoid", torch.sigmoid),
    ("relu", torch.relu),
]
for name, fn in fns:
    x.grad = None
    out = fn(x)
    out.sum().backward()
    print(name, out)
    print("  grad", x.grad)
m = torch.tensor([-1.5, 0.0, 2.5], requires_grad=True)
for name in ["neg", "abs", "exp", "sin", "cos", "tanh", "sigmoid", "relu"]:
    m.grad = None
    out = getattr(m, name)()
    out.sum().backward()
    print(name, out.grad_fn.name(), m.grad)
