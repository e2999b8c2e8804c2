# torch.nn.functional: relu, mse_loss, log_softmax, cross_entropy.
import torch
import torch.nn.functional as F

x = torch.tensor([[-1.0, 0.0, 2.0], [1.0, 3.0, -1.0]], requires_grad=True)
r = F.relu(x)
print(r)
ls = F.log_softmax(x, dim=1)
print(ls)
print((ls.exp().sum(dim=1) - 1).abs() < 1e-6)
target = torch.tensor([2, 0])
ce = F.cross_entropy(x, target)
print(ce)
ce.backward()
print(x.grad)
x.grad = None
mse = F.mse_loss(x, torch.zeros(2, 3))
print(mse)
mse.backward()
print(x.grad)
x.grad = None
F.log_softmax(x, dim=-1)[:, 0].sum().backward()
print(x.grad)
print(F.cross_entropy(x, target, reduction="sum"), F.cross_entropy(x, target, reduction="none"))
