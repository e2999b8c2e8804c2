# Source: pytorch/pytorch torch/autograd/functional.py, v2.13.0 (the documentation's examples of
#   torch.autograd.functional: vjp, jvp, jacobian, hessian, vhp and hvp, each without and with
#   create_graph=True, on one input and on a tuple of inputs)
# Edits: the docstrings' examples in the order of the module, as one program; each displayed
#   result is printed with print(); torch.manual_seed(0) added (the examples draw torch.rand
#   unseeded, and their outputs are marked non-deterministic).
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.manual_seed(0)

def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))

print(vjp(exp_reducer, inputs, v, create_graph=True))

def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))

def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))

print(jvp(exp_reducer, inputs, v, create_graph=True))

def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))

def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))

print(jacobian(exp_reducer, inputs, create_graph=True))

def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))

def linear_model(x):
    W = torch.tensor([[2.0, -1.0], [0.0, 1.0]])
    b = torch.tensor([1.0, 0.5])
    return x @ W.T + b

x = torch.randn(4, 2, requires_grad=True)
jac = jacobian(linear_model, x, vectorize=True)
print(jac.shape)

def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))

print(hessian(pow_reducer, inputs, create_graph=True))

def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))

def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v, create_graph=True))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))

def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))

print(hvp(pow_reducer, inputs, v, create_graph=True))

def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))
