# Source: dataflowr/notebooks Module2/02a_basics.ipynb at 043dff0 (Marc Lelarge's "Deep Learning
#   Do It Yourself!", module 2: tensors, numpy bridges, broadcasting, `set_printoptions`, in-place
#   `add_` and `t_`, then autograd on float64 tensors made by `from_numpy`: an integer tensor
#   refusing `requires_grad_`, gradients checked by hand, accumulated, zeroed through `.data`,
#   and a second backward through a freed graph)
# Edits: the notebook's code cells in order; a cell's displayed last expression is printed with
#   print(); torch.__version__ is not printed; torch.manual_seed(0) added (unseeded); the values of
#   `torch.empty` (uninitialised memory) are not printed, only its dtype; `device` is the
#   notebook's commented-out CPU device (no GPU); the CIFAR10 download is replaced by seeded
#   random uint8 images of the same layout and the plotting cells are left out; the two cells
#   that raise (as the notebook means them to) run inside try/except that prints the error as
#   Python shows its last line.
import torch
import numpy as np

torch.manual_seed(0)

x = torch.empty(3,5)
print(x.dtype)

x = torch.randn(3,5)
print(x)

print(x.size())

print(x.size()[1])

print(x.size() == (3,5))

y = x.numpy()
print(y)

a = np.ones(5)
b = torch.from_numpy(a)
print(a.dtype)
print(b)

c = b.long()
print(c.dtype, c)
print(b.dtype, b)

xr = torch.randn(3, 5)
print(xr.dtype, xr)

resb = xr + b
print(resb)

resc = xr + c
print(resc)

print(resb == resc)

torch.set_printoptions(precision=10)

print(resb[0,1])

print(resc[0,1])

print(resc[0,1].dtype)

print(xr[0,1])

torch.set_printoptions(precision=4)

A = torch.tensor([[1.], [2.], [3.], [4.]])
print(A.size())
B = torch.tensor([[5., -5., 5., -5., 5.]])
print(B.size())
C = A + B

print(C)

print(x)

print(xr)

print(x+xr)

x.add_(xr)
print(x)

print(x.t())

x.t_()
print(x)

a = np.ones(5)
b = torch.from_numpy(a)
print(b)

a[2] = 0
print(b)

b[3] = 5
print(a)

print(torch.cuda.is_available())

device = torch.device('cpu')

print(x.device)

if torch.cuda.is_available():
    y = torch.ones_like(x, device=device)  # directly create a tensor on GPU
    x = x.to(device)                       # or just use strings ``.to("cuda")``
    z = x + y
    print(z,z.type())
    print(z.to("cpu", torch.double))       # ``.to`` can also change dtype together!

x = torch.randn(1)
x = x.to(device)

print(x.device)

x = x.data
print(x)
print(x.item())
print(x.cpu().numpy())

cifar_data = np.random.default_rng(0).integers(0, 256, size=(100, 32, 32, 3), dtype=np.uint8)
print(cifar_data.shape)

x = torch.from_numpy(cifar_data).permute(0,3,1,2).float()
x = x / 255
print(x.type(), x.size(), x.min().item(), x.max().item())

# Narrows to the first images, converts to float
x = torch.narrow(x, 0, 0, 48)

print(x.shape)

# Kills the green and blue channels
x.narrow(1, 1, 2).fill_(0)
print(x[0, :, 0, :4])

w = np.array([0.5])
b = np.array([2])
xx = np.array([0.5])#np.arange(0,1.5,.5)

xx_t = torch.from_numpy(xx)
w_t = torch.from_numpy(w)
b_t = torch.from_numpy(b)

print(w_t.requires_grad)

print(w_t.requires_grad_(True))

try:
    print(b_t.requires_grad_(True))
except RuntimeError as error:
    print(f"RuntimeError: {error}")

dtype = torch.float64

b_t = b_t.type(dtype)

print(b_t.requires_grad_(True))

def fun(x,ystar):
    y = torch.exp(w_t*x+b_t)
    print(y)
    return torch.sum((y-ystar)**2)

ystar_t = torch.randn_like(xx_t)
l_t = fun(xx_t,ystar_t)

print(l_t)

print(l_t.requires_grad)

print(w_t.grad)

l_t.backward()

print(w_t.grad)
print(b_t.grad)

yy_t = torch.exp(w_t*xx_t+b_t)
print(torch.sum(2*(yy_t-ystar_t)*yy_t*xx_t))
print(torch.sum(2*(yy_t-ystar_t)*yy_t))

l_t = fun(xx_t,ystar_t)
l_t.backward()

print(w_t.grad)
print(b_t.grad)

try:
    l_t.backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# Manually zero the gradients
w_t.grad.data.zero_()
b_t.grad.data.zero_()
l_t = fun(xx_t,ystar_t)
l_t.backward(retain_graph=True)
l_t.backward()
print(w_t.grad)
print(b_t.grad)
