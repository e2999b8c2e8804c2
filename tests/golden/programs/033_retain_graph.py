# retain_graph=True keeps the graph for another backward; the last one may free it.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])
g1 = torch.autograd.grad((x ** 3).sum(), x, retain_graph=True)
print(g1)
