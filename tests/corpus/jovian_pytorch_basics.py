# Source: "Deep Learning with PyTorch: Zero to GANs" (Aakash N S, jovian.ai), lesson 1,
#   01-pytorch-basics.ipynb ("PyTorch Basics: Tensors & Gradients")
# Edits: a cell's displayed last expression is printed with print(); the cell that makes a
#   tensor of lists of unequal lengths runs in a try that prints its error; the cells that
#   print help(torch) or link the documentation are left out.
import torch
import numpy as np

# Number
t1 = torch.tensor(4.)
print(t1)
print(t1.dtype)

# Vector
t2 = torch.tensor([1., 2, 3, 4])
print(t2)

# Matrix
t3 = torch.tensor([[5., 6],
                   [7, 8],
                   [9, 10]])
print(t3)

# 3-dimensional array
t4 = torch.tensor([
    [[11, 12, 13],
     [13, 14, 15]],
    [[15, 16, 17],
     [17, 18, 19.]]])
print(t4)

print(t1.shape)
print(t2.shape)
print(t3.shape)
print(t4.shape)

try:
    t5 = torch.tensor([[5., 6, 11],
                       [7, 8],
                       [9, 10]])
except ValueError as e:
    print(e)

# Create tensors.
x = torch.tensor(3.)
w = torch.tensor(4., requires_grad=True)
b = torch.tensor(5., requires_grad=True)
print(x, w, b)

# Arithmetic operations
y = w * x + b
print(y)

# Compute derivatives
y.backward()

# Display gradients
print('dy/dx:', x.grad)
print('dy/dw:', w.grad)
print('dy/db:', b.grad)

# Create a tensor with a fixed value for every element
t6 = torch.full((3, 2), 42)
print(t6)

# Concatenate two tensors with compatible shapes
t7 = torch.cat((t3, t6))
print(t7)

# Compute the sin of each element
t8 = torch.sin(t7)
print(t8)

# Change the shape of a tensor
t9 = t8.reshape(3, 2, 2)
print(t9)

x = np.array([[1, 2], [3, 4.]])
print(x)

# Convert the numpy array to a torch tensor.
y = torch.from_numpy(x)
print(y)
print(x.dtype, y.dtype)

# Convert a torch tensor to a numpy array
z = y.numpy()
print(z)
