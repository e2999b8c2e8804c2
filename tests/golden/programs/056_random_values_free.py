# Random tensors: only what does not depend on the random stream's values is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)
r = torch.rand(2, 3)
n = torch.randn(4, requires_grad=True)
print(r.shape, r.dtype, r.requires_grad, n.shape, n.requires_grad, n.is_leaf)
print(bool(((r >= 0) & (r < 1)).all()))
print(torch.rand(3, dtype=torch.float64).dtype)
(n * 2).sum().backward()
print(n.grad)
lin = nn.Linear(4, 3)
print(lin.weight.shape, lin.bias.shape, lin.weight.grad)
lin.weight.data = torch.ones(3, 4)
lin.bias.data = torch.tensor([0.0, 1.0, 2.0])
out = lin(torch.tensor([[1.0, 2.0, 3.0, 4.0]]))
print(out)
out.sum().backward()
print(lin.weight.grad)
print(lin.bias.grad)
print(type(lin.weight).__name__, lin.weight.requires_grad)
