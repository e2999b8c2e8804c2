# Source: chenyuntc/pytorch-book, Chapter2/Chapter2.ipynb, section 2.2 (Chen Yun's "Deep
#   Learning Framework PyTorch", 2nd edition, the quick start: `t.Tensor(5, 3)` and
#   `t.tensor([5])`, three ways to add, `y.add` against `y.add_`, numpy sharing memory, 0-d
#   tensors and `.item()`, `clone` against `detach` sharing storage, then autograd: a sum's
#   gradient accumulating over three `backward()` calls, `x.grad.data.zero_()`, and
#   `requires_grad_` of a computed tensor; the LeNet's parameters)
# Edits: torch.__version__ is not printed; torch.manual_seed(0) added (unseeded); the
#   uninitialised `t.Tensor(5, 3)` is not printed (it holds whatever memory held); a cell's
#   displayed last expression is printed with print().
import torch as t

t.manual_seed(0)

# a 5x3 matrix: space allocated, not initialised
x = t.Tensor(5, 3) # size 5*3

y = t.Tensor(5)
print(y.size())
z = t.tensor([5])# torch.tensor needs the values themselves
print(z.size())

# uniform on [0, 1]
x = t.rand(5, 3)
print(x)

print(x.shape) # x's shape
print((x.size()[1], x.size(1))) # the number of columns, two ways

y = t.rand(5, 3)
# the first way to add
print(x + y)

# the second
print(t.add(x, y))

# the third: into a result given as out
result = t.Tensor(5, 3) # space allocated beforehand
# result = torch.empty(5,3)
t.add(x, y, out=result) # into result
print(result)

print('y at first')
print(y)

print('the first addition: y')
y.add(x) # a plain addition: y is unchanged
print(y)

print('the second addition: y')
y.add_(x) # in place: y changes
print(y)

# indexing as in numpy
print(x[:, 1])

a = t.ones(5) # a new Tensor of ones
print(a)

b = a.numpy() # Tensor -> Numpy
print(b)

import numpy as np
a = np.ones(5)
b = t.from_numpy(a) # Numpy->Tensor
print(a)
print(b)

b.add_(1) # a function ending in `_` changes its tensor
print(a)
print(b) # the Tensor and the array share memory

scalar = b[0]
print(scalar)

print(scalar.shape) #0-dim

print(scalar.item()) # item() gives the Python number

tensor = t.tensor([2]) # not the same as scalar
print((tensor,scalar))

print((tensor.size(),scalar.size()))

# a tensor of one element has item() too
print((tensor.item(), scalar.item()))

tensor = t.tensor([3,4]) # a tensor of the two elements 3 and 4

scalar = t.tensor(3)
print(scalar)

old_tensor = tensor
new_tensor = old_tensor.clone()
new_tensor[0] = 1111
print((old_tensor, new_tensor))

x = t.randn(4,4)
y = x.view(16)
z = x.view(-1,8) # -1: worked out from the other dimensions
print(x.size(),y.size(),z.size())

p = x.reshape(-1,8)
print(p.shape)

x1 = t.randn(2,4,6)
o1 = x1.permute((2,1,0))
o2 = x1.transpose(0,2)
print(f'o1 size{o1.size()}')
print(f'o2 size{o2.size()}')
print(f'o2 size {o2.size()}')

new_tensor = old_tensor.detach()
new_tensor[0] = 1111
print((old_tensor, new_tensor))

x = t.randn(3,2,1,1)
y = x.squeeze(-1) # the last dimension squeezed
z = x.unsqueeze(0) # a dimension added first
w = t.cat((x,x),0) # x and x joined along the first dimension
print(f'y size{y.shape}')
print(f'z size{z.shape}')
print(f'w size{w.shape}')

x = t.randn(1)
print(x)
print(x.item())

# without CUDA, this runs on the CPU
device = t.device("cuda:0" if t.cuda.is_available() else "cpu")
x = x.to(device)
y = y.to(x.device)
z = x+y

# requires_grad: the tensor's derivatives are wanted
# PyTorch's autograd records the operations
x = t.ones(2, 2, requires_grad=True)

# the same as
# x = t.ones(2,2)
# x.requires_grad = True

print(x)

y = x.sum()
print(y)

print(y.grad_fn)

y.backward() # backward: the gradients

# y = x.sum() = (x[0][0] + x[0][1] + x[1][0] + x[1][1])
# every value's gradient is 1
print(x.grad)

y.backward()
print(x.grad)

y.backward()
print(x.grad)

# a function ending in an underscore works in place, as add_
print(x.grad.data.zero_())

y.backward()
print(x.grad)

a = t.randn(2,2)
a = ((a*3)/(a-1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a*a).sum()
print(b.grad_fn)

import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        # an nn.Module subclass runs its parent's constructor first
        # same as nn.Module.__init__(self)
        super(Net, self).__init__()

        # convolution: 1 input channel, 6 output channels, a 5x5 kernel
        self.conv1 = nn.Conv2d(1, 6, 5)
        # convolution
        self.conv2 = nn.Conv2d(6, 16, 5)
        # affine (fully connected) layers, y = Wx + b
        self.fc1   = nn.Linear(16*5*5, 120)
        self.fc2   = nn.Linear(120, 84)
        self.fc3   = nn.Linear(84, 10)

    def forward(self, x):
        # convolution -> activation -> pooling

        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        # reshape: '-1' adapts
        x = x.view(x.size()[0], -1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

net = Net()
print(net)

params = list(net.parameters())
print(len(params))
