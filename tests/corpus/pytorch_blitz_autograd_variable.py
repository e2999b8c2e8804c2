# Source: pytorch/tutorials, beginner_source/blitz/autograd_tutorial.py at commit
#   56d1da96ef0e5acf5187d89c27d6ca6178170bc5 (the 60 Minute Blitz's "Autograd: automatic
#   differentiation" from the Variable era, still copied by many course notes)
# Edits: PyTorch seeds its generator differently on every run, so torch.manual_seed(0) is added
#   after the imports.
import torch
from torch.autograd import Variable

torch.manual_seed(0)

###############################################################
# Create a variable:
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)

###############################################################
# Do an operation of variable:
y = x + 2
print(y)

###############################################################
# ``y`` was created as a result of an operation, so it has a ``grad_fn``.
print(y.grad_fn)

###############################################################
# Do more operations on y
z = y * y * 3
out = z.mean()

print(z, out)

out.backward()

print(x.grad)

x = torch.randn(3)
x = Variable(x, requires_grad=True)

y = x * 2
while y.data.norm() < 1000:
    y = y * 2

print(y)

gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)

print(x.grad)
