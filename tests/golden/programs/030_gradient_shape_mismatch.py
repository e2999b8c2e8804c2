# A gradient argument of the wrong shape raises "Mismatch in shape".
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
try:
    y.backward(torch.ones(3))
except RuntimeError as e:
    print(type(e).__name__, str(e))
try:
    y.backward(torch.ones(2, 1))
except RuntimeError as e:
    print(type(e).__name__, str(e))
s = (x * x).sum()
try:
    s.backward(torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(x.grad)
s.backward(torch.tensor(3.0))
print(x.grad)
