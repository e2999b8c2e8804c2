# Changing in place a tensor that was saved for backward makes backward fail.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = x + 1
print("a._version:", a._version)
b = a * a  # saves a
a.add_(1)
print("a._version:", a._version)
print(a)
try:
    b.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e))
print(x.grad)

# a saved output (exp saves its result)
e = x.exp()
s = e.sum()
print("e._version:", e._version)
e.mul_(2)
print("e._version:", e._version)
try:
    s.backward()
except RuntimeError as err:
    print(type(err).__name__, str(err))

# a leaf that does not require grad, saved by mul, then changed
c = torch.tensor([2.0, 2.0, 2.0])
p = x * c
c[1] = 5.0
print("c._version:", c._version)
try:
    p.sum().backward()
except RuntimeError as err:
    print(type(err).__name__, str(err))
