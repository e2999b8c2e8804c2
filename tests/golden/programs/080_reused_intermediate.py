# An intermediate used several times: its gradient is the sum over all uses.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = y * y + y + y.sum()
z.sum().backward()
print(y.grad)
print(x.grad)
x.grad = None
h = x.tanh()
out = (h * h).sum() + h.mean()
out.backward()
print(x.grad)
