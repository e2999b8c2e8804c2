# grad_fn names and the graph structure through next_functions.
import torch


def edges(t):
    return [(f.name() if f is not None else None, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
c = torch.tensor(5.0)
print(x.grad_fn)
y = w * x + b
print(y)
print(y.grad_fn.name(), type(y.grad_fn).__name__)
print(edges(y))
mul = y.grad_fn.next_functions[0][0]
print([(f.name() if f is not None else None, i) for f, i in mul.next_functions])
acc = mul.next_functions[0][0]
print(type(acc).__name__, acc.variable is w, acc.next_functions)
z = x * c
print(edges(z))
q = c * x
print(edges(q))
s = (x * 2).exp().sum()
print(s.grad_fn.name(), edges(s))
