# autograd.grad on a non-scalar output needs grad_outputs.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
try:
    torch.autograd.grad(y, x, retain_graph=True)
except RuntimeError as e:
    print(type(e).__name__, str(e))
(g,) = torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 0.0, -1.0]), retain_graph=True)
print(g)
(g2,) = torch.autograd.grad([y], [x], grad_outputs=[torch.ones(3)])
print(g2)
# several outputs: their gradients add up
a = x.sum()
b = (x * 2).sum()
print(torch.autograd.grad([a, b], x))
