# nn.Linear with weights set by hand; gradients of weight and bias.
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
print(lin)
print(lin.weight.shape, lin.bias.shape, lin.weight.requires_grad, lin.weight.is_leaf)
print(type(lin.weight).__name__, isinstance(lin.weight, torch.Tensor))
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
    lin.bias.copy_(torch.tensor([0.1, -0.1]))
print(lin.weight)
print(lin.bias)
inp = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
out = lin(inp)
print(out)
print(out.grad_fn.name())
out.sum().backward()
print(lin.weight.grad)
print(lin.bias.grad)
print([name for name, _ in lin.named_parameters()])
print([tuple(p.shape) for p in lin.parameters()])
nobias = nn.Linear(2, 1, bias=False)
print(nobias, nobias.bias, len(list(nobias.parameters())))
