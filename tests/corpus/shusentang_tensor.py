# Source: ShusenTang/Dive-into-DL-PyTorch, code/chapter02_prerequisite/2.2_tensor.ipynb
#   (the PyTorch rewrite of "Dive into Deep Learning"'s Chinese first edition, section 2.2
#   Data manipulation: creation, `new_ones`, `randn_like`, `out=`, in-place adds, views sharing
#   data with their base, broadcasting, memory kept by `y[:] =` and `out=y`, numpy sharing)
# Edits: torch.__version__ is not printed and torch.cuda.manual_seed(0) left out; the
#   uninitialised `torch.empty(5, 3)` is not printed (it holds whatever memory held); the cell
#   for a GPU is left out (it runs only where CUDA is available).
import torch

torch.manual_seed(0)

x = torch.empty(5, 3)

x = torch.rand(5, 3)
print(x)

x = torch.zeros(5, 3, dtype=torch.long)
print(x)

x = torch.tensor([5.5, 3])
print(x)

x = x.new_ones(5, 3, dtype=torch.float64)      # keeps torch.dtype and torch.device by default
print(x)

x = torch.randn_like(x, dtype=torch.float)    # a new dtype
print(x)

print(x.size())
print(x.shape)

y = torch.rand(5, 3)
print(x + y)

print(torch.add(x, y))

result = torch.empty(5, 3)
torch.add(x, y, out=result)
print(result)

# adds x to y
y.add_(x)
print(y)

y = x[0, :]
y += 1
print(y)
print(x[0, :]) # the source tensor changed too

y = x.view(15)
z = x.view(-1, 5)  # -1 is inferred from the other dimensions
print(x.size(), y.size(), z.size())

x += 1
print(x)
print(y) # also added 1

x_cp = x.clone().view(15)
x -= 1
print(x)
print(x_cp)

x = torch.randn(1)
print(x)
print(x.item())

x = torch.arange(1, 3).view(1, 2)
print(x)
y = torch.arange(1, 4).view(3, 1)
print(y)
print(x + y)

x = torch.tensor([1, 2])
y = torch.tensor([3, 4])
id_before = id(y)
y = y + x
print(id(y) == id_before)

x = torch.tensor([1, 2])
y = torch.tensor([3, 4])
id_before = id(y)
y[:] = y + x
print(id(y) == id_before)

x = torch.tensor([1, 2])
y = torch.tensor([3, 4])
id_before = id(y)
torch.add(x, y, out=y) # y += x, y.add_(x)
print(id(y) == id_before)

a = torch.ones(5)
b = a.numpy()
print(a, b)

a += 1
print(a, b)
b += 1
print(a, b)

import numpy as np
a = np.ones(5)
b = torch.from_numpy(a)
print(a, b)

a += 1
print(a, b)
b += 1
print(a, b)

# torch.tensor() copies: no shared memory
c = torch.tensor(a)
a += 1
print(a, c)
