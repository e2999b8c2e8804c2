# A hook on an intermediate tensor changes the gradient that flows on to the leaves.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
mid = x * x
seen = []


def clip(g):
    seen.append(g.clone())
    return g.clamp(max=1.0)


mid.register_hook(clip)
out = (mid * torch.tensor([0.5, 2.0, 3.0])).sum()
out.backward()
print(seen)
print(x.grad)
# a hook returning None leaves the gradient unchanged
x.grad = None
m2 = x * x
m2.register_hook(lambda g: None)
m2.sum().backward()
print(x.grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print(type(e).__name__, str(e))
