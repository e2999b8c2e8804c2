# Source: ritchieng/deep-learning-wizard, docs/deep_learning/practical_pytorch/pytorch_matrices.ipynb
#   (Ritchie Ng's Deep Learning Wizard, "Matrices with PyTorch": numpy and torch side by side,
#   seeds, `torch.from_numpy` for each numpy dtype, `view`, in-place and out-of-place
#   arithmetic, `mean` and `std` along a dimension)
# Edits: a cell's displayed last expression is printed with print(); the cell that the notebook
#   shows erring (`a.mean(dim=1)` of a 1-d tensor) runs inside try/except that prints the error
#   as Python shows its last line.
import numpy as np

# Creating a 2x2 array
arr = [[1, 2], [3, 4]]
print(arr)

# Convert to NumPy
print(np.array(arr))

import torch

# Convert to PyTorch Tensor
print(torch.Tensor(arr))

print(np.ones((2, 2)))

print(torch.ones((2, 2)))

# Seed
np.random.seed(0)
print(np.random.rand(2, 2))

# Seed
np.random.seed(0)
print(np.random.rand(2, 2))

# No seed
print(np.random.rand(2, 2))

# No seed
print(np.random.rand(2, 2))

# Torch Seed
torch.manual_seed(0)
print(torch.rand(2, 2))

# Torch Seed
torch.manual_seed(0)
print(torch.rand(2, 2))

# Torch No Seed
print(torch.rand(2, 2))

# Torch No Seed
print(torch.rand(2, 2))

if torch.cuda.is_available():
    torch.cuda.manual_seed_all(0)

# Numpy array
np_array = np.ones((2, 2))

print(np_array)

print(type(np_array))

# Convert to Torch Tensor
torch_tensor = torch.from_numpy(np_array)

print(torch_tensor)

print(type(torch_tensor))

# Data types matter: intentional error
np_array_new = np.ones((2, 2), dtype=np.int8)
print(torch.from_numpy(np_array_new))

# Data types matter
np_array_new = np.ones((2, 2), dtype=np.int64)
print(torch.from_numpy(np_array_new))

# Data types matter
np_array_new = np.ones((2, 2), dtype=np.int32)
print(torch.from_numpy(np_array_new))

# Data types matter
np_array_new = np.ones((2, 2), dtype=np.uint8)
print(torch.from_numpy(np_array_new))

# Data types matter
np_array_new = np.ones((2, 2), dtype=np.float64)
print(torch.from_numpy(np_array_new))

# Data types matter
np_array_new = np.ones((2, 2), dtype=np.float32)
print(torch.from_numpy(np_array_new))

# Data types matter
np_array_new = np.ones((2, 2), dtype=np.double)
print(torch.from_numpy(np_array_new))

torch_tensor = torch.ones(2, 2)

print(type(torch_tensor))

torch_to_numpy = torch_tensor.numpy()

print(type(torch_to_numpy))

# CPU
tensor_cpu = torch.ones(2, 2)

# CPU to GPU
if torch.cuda.is_available():
    tensor_cpu.cuda()

# GPU to CPU
print(tensor_cpu.cpu())

a = torch.ones(2, 2)
print(a)

print(a.size())

print(a.view(4))

print(a.view(4).size())

a = torch.ones(2, 2)
print(a)

b = torch.ones(2, 2)
print(b)

# Element-wise addition
c = a + b
print(c)

# Element-wise addition
c = torch.add(a, b)
print(c)

# In-place addition
print('Old c tensor')
print(c)

c.add_(a)

print('-'*60)
print('New c tensor')
print(c)

print(a)
print(b)

print(a - b)

# Not in-place
print(a.sub(b))
print(a)

# Inplace
print(a.sub_(b))
print(a)

a = torch.ones(2, 2)
print(a)
b = torch.zeros(2, 2)
print(b)

print(a * b)

# Not in-place
print(torch.mul(a, b))
print(a)

# In-place
print(a.mul_(b))
print(a)

a = torch.ones(2, 2)
b = torch.zeros(2, 2)

print(b / a)

print(torch.div(b, a))

# Inplace
print(b.div_(a))

a = torch.Tensor([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
print(a.size())

print(a.mean(dim=0))

try:
    print(a.mean(dim=1))
except IndexError as error:
    print(f"IndexError: {error}")

a = torch.Tensor([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]])

print(a.size())

print(a.mean(dim=1))

a = torch.Tensor([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
print(a.std(dim=0))
