# retain_grad(): the retains_grad flag, no-op on leaves, refused without requires_grad.
import torch

x = torch.tensor([1.0, -1.0], requires_grad=True)
x.retain_grad()
print("leaf retains_grad:", x.retains_grad)
y = x * 2
print("non-leaf before:", y.retains_grad)
y.retain_grad()
y.retain_grad()
print("non-leaf after:", y.retains_grad)
z = (y ** 2).sum()
z.backward()
print(y.grad, x.grad)
c = torch.tensor([1.0])
try:
    c.retain_grad()
except RuntimeError as e:
    print(type(e).__name__, str(e))
with torch.no_grad():
    n = x * 2
try:
    n.retain_grad()
except RuntimeError as e:
    print(type(e).__name__, str(e))
# the retained grad accumulates too
y3 = x * 2
y3.retain_grad()
w = y3.sum()
w.backward(retain_graph=True)
w.backward()
print(y3.grad, x.grad)
