# Hooks on a leaf run in registration order; a returned tensor replaces the
# gradient for the next hook and for what accumulates into .grad.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)


def first(g):
    print("first sees", g)
    return g * 2


def second(g):
    print("second sees", g)


def third(g):
    print("third sees", g)
    return g + 1


x.register_hook(first)
x.register_hook(second)
x.register_hook(third)
(x * 3).sum().backward()
print("x.grad:", x.grad)
(x * 3).sum().backward()
print("x.grad:", x.grad)
