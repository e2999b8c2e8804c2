# A graph whose nodes saved no tensors (add, neg, sum) can be backwarded twice
# without retain_graph; multiplying by a Python number saves that number, so a
# graph with it cannot.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x + 1).sum()
y.backward()
y.backward()
print("add+sum twice:", x.grad)
x.grad = None
z = (x - 3).sum() * 1
try:
    z.backward()
    z.backward()
    print("sub+sum+mul twice:", x.grad)
except RuntimeError as e:
    print(type(e).__name__, str(e).split(" (")[0])
x.grad = None
n = (-x).sum()
n.backward()
n.backward()
print("neg+sum twice:", x.grad)
