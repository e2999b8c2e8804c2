# autograd.grad with an input that the output does not depend on.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
u = torch.tensor([3.0], requires_grad=True)
y = (x * x).sum()
try:
    torch.autograd.grad(y, [x, u], retain_graph=True)
except RuntimeError as e:
    print(type(e).__name__, str(e))
res = torch.autograd.grad(y, [x, u], allow_unused=True)
print(res)
print(res[1] is None)
print(x.grad, u.grad)
