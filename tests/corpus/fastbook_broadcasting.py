# Source: fastai/fastbook 17_foundations.ipynb at 823b69e ("Deep Learning for Coders with fastai
#   and PyTorch", chapter 17, A Neural Net from the Foundations: its sections on elementwise
#   arithmetic and broadcasting)
# Edits: the chapter's code cells from `import torch` to the end of "Broadcasting rules"; the
#   cells that time matrix products (%time, %timeit), with the loops they time, are left out; a
#   cell's last expression, which the notebook shows, is printed; the two cells whose error the
#   chapter shows print it as `type: message` (try/except) instead of stopping the program.

# In[11]
import torch
from torch import tensor

# In[23]
a = tensor([10., 6, -4])
b = tensor([2., 8, 7])
print(a + b)

# In[25]
print(a < b)

# In[27]
print((a < b).all(), (a==b).all())

# In[29]
print((a + b).mean().item())

# In[31]
m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
print(m*m)

# In[33]
n = tensor([[1., 2, 3], [4,5,6]])
try:
    print(m*n)
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")

# In[42]
a = tensor([10., 6, -4])
print(a > 0)

# In[44]
m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
print((m - 5) / 2.73)

# In[48]
c = tensor([10.,20,30])
m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
print(m.shape,c.shape)

# In[49]
print(m + c)

# In[51]
print(c.expand_as(m))

# In[53]
t = c.expand_as(m)
print(t.storage())

# In[55]
print(t.stride(), t.shape)

# In[57]
print(c + m)

# In[59]
c = tensor([10.,20,30])
m = tensor([[1., 2, 3], [4,5,6]])
print(c+m)

# In[61]
c = tensor([10.,20])
m = tensor([[1., 2, 3], [4,5,6]])
try:
    print(c+m)
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")

# In[63]
c = tensor([10.,20,30])
m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
c = c.unsqueeze(1)
print(m.shape,c.shape)

# In[65]
print(c+m)

# In[67]
t = c.expand_as(m)
print(t.storage())

# In[69]
print(t.stride(), t.shape)

# In[71]
c = tensor([10.,20,30])
print(c.shape, c.unsqueeze(0).shape,c.unsqueeze(1).shape)

# In[73]
print(c.shape, c[None,:].shape,c[:,None].shape)

# In[75]
print(c[None].shape,c[...,None].shape)
