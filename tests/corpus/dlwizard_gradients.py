# Source: ritchieng/deep-learning-wizard, docs/deep_learning/practical_pytorch/pytorch_gradients.ipynb
#   (Ritchie Ng's Deep Learning Wizard, "Gradients with PyTorch": requires_grad two ways,
#   operations on tensors that require grad, `backward()` of a scalar and `x.grad`)
# Edits: a cell's displayed last expression is printed with print().
import torch

a = torch.ones((2, 2), requires_grad=True)
print(a)

print(a.requires_grad)

# Normal way of creating gradients
a = torch.ones((2, 2))

# Requires gradient
a.requires_grad_()

# Check if requires gradient
print(a.requires_grad)

# Not a variable
no_gradient = torch.ones(2, 2)

print(no_gradient.requires_grad)

# Behaves similarly to tensors
b = torch.ones((2, 2), requires_grad=True)
print(a + b)
print(torch.add(a, b))

print(a * b)
print(torch.mul(a, b))

x = torch.ones(2, requires_grad=True)
print(x)

y = 5 * (x + 1) ** 2
print(y)

o = (1/2) * torch.sum(y)
print(o)

o.backward()

print(x.grad)

print(x.requires_grad)

print(y.requires_grad)

print(o.requires_grad)
