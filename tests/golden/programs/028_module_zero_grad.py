# Module.zero_grad() also sets the parameters' .grad to None by default.
import torch
import torch.nn as nn

lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -1.0]]))
    lin.bias.fill_(0.5)
out = lin(torch.tensor([[2.0, 3.0]]))
print(out)
out.sum().backward()
print(lin.weight.grad, lin.bias.grad)
lin.zero_grad()
print(lin.weight.grad, lin.bias.grad)
out = lin(torch.tensor([[2.0, 3.0]]))
out.sum().backward()
lin.zero_grad(set_to_none=False)
print(lin.weight.grad, lin.bias.grad)
