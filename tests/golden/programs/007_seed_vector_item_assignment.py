# Seed 003, vector version: rows of a zeros tensor are assigned from
# expressions of x, then backward with an all-ones gradient.
import torch

x = torch.tensor([[0.3725], [0.4378]], requires_grad=True)
print(x)
y = torch.zeros(3, 1)
print(y.requires_grad, y.is_leaf)
y[0] = x[0] ** 2
print(y.requires_grad, y.is_leaf, y.grad_fn.name())
y[1] = x[1] ** 3
y[2] = x[1] ** 4
print(y)
print(y.size())
y.backward(gradient=torch.ones(y.size()))
print(x.grad)
# the same numbers by hand
print((2 * x[0], 3 * x[1] ** 2, 4 * x[1] ** 3))
print((2 * x[0], 3 * x[1] ** 2 + 4 * x[1] ** 3))
