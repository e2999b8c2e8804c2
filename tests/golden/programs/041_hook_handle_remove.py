# register_hook returns a handle; remove() unregisters the hook.
import torch

x = torch.tensor(3.0, requires_grad=True)
calls = []


def doubler(g):
    calls.append("doubler")
    return g * 2


h = x.register_hook(doubler)
(x * x).backward()
print(x.grad, calls)
h.remove()
x.grad = None
(x * x).backward()
print(x.grad, calls)
h.remove()  # removing twice is harmless
print("removed twice")
y = x * 1
hy = y.register_hook(lambda g: g * 0)
hy.remove()
x.grad = None
(y * 4).backward()
print(x.grad)
