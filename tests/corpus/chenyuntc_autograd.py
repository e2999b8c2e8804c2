# Source: chenyuntc/pytorch-book, Chapter3/chapter3.ipynb, section 3.2 autograd (Chen Yun,
#   "Deep Learning Framework PyTorch: Getting Started and Practice", 2nd edition: requires_grad
#   and is_leaf, a gradient checked against a hand-written derivative, `grad_fn.next_functions`,
#   `retain_graph`, control flow, no_grad and `set_grad_enabled`, `.data`, a non-leaf's grad
#   through `autograd.grad` and through `register_hook`, a custom Function and its
#   `grad_fn.apply`, then linear regression with autograd)
# Edits: torch.manual_seed(0) added at the start (unseeded until the regression, which seeds
#   itself); the cells that need a GPU (`.cuda(0)`) are left out; a cell's displayed last
#   expression is printed with print(); the regression's plotting is left out, but the data it
#   draws for its plots is still drawn (it advances the generator).
from __future__ import print_function
import torch as t

t.manual_seed(0)

# the two ways are equivalent
a = t.randn(3,4, requires_grad=True)
# a = t.randn(3, 4).requires_grad_()
print(a.requires_grad)

# requires_grad can also be set on its own
a = t.randn(3, 4)
a.requires_grad = True

b = t.zeros(3,4).requires_grad_()
c = (a + b).sum()
c.backward()
print(c)

print(a.grad)

# c was not asked to require grad, but it depends on a, which does
print((a.requires_grad, b.requires_grad, c.requires_grad))

print((a.is_leaf, b.is_leaf, c.is_leaf))

a = t.rand(10, requires_grad=True)
print(a.is_leaf)

c = t.rand(10, requires_grad=True) + 2
print(c.is_leaf)

def f(x):
    '''compute y'''
    y = x**2 * t.exp(x)
    return y

def gradf(x):
    '''the derivative by hand'''
    dx = 2*x*t.exp(x) + x**2*t.exp(x)
    return dx

x = t.randn(3,4, requires_grad = True)
y = f(x)
print(y)

y.backward(t.ones(y.size())) # gradient has y's shape
print(x.grad)

# autograd agrees with the formula
print(gradf(x))

x = t.ones(1)
b = t.rand(1, requires_grad = True)
w = t.rand(1, requires_grad = True)
y = w * x # same as y=w.mul(x)
z = y + b # same as z=y.add(b)

print((x.requires_grad, b.requires_grad, w.requires_grad))

# y was not asked to require grad, but it depends on w, which does
print(y.requires_grad)

# grad_fn is the tensor's backward function:
# z is the output of add, so its backward function is AddBackward
print(z.grad_fn)

# next_functions holds grad_fn's inputs, a tuple of Functions
# the first is y, the output of mul, so y.grad_fn is MulBackward
# the second is b, a leaf made by the user: grad_fn is None
print(z.grad_fn.next_functions)

# the first is w, a leaf that requires grad, whose gradient accumulates
# the second is x, a leaf that does not require grad: None
print(y.grad_fn.next_functions)

# a leaf's grad_fn is None
print((w.grad_fn,x.grad_fn))

# retain_graph keeps the buffers
z.backward(retain_graph=True)
print(w.grad)

# backward again: the gradient accumulates, which is what AccumulateGrad means
z.backward()
print(w.grad)

def abs(x):
    if x.data[0]>0: return x
    else: return -x
x = t.ones(1,requires_grad=True)
y = abs(x)
y.backward()
print(x.grad)

def f(x):
    result = 1
    for ii in x:
        if ii.item()>0: result=ii*result
    return result
x = t.arange(-2,4).float().requires_grad_()
y = f(x) # y = x[3]*x[4]*x[5]
y.backward()
print(x.grad)

x = t.ones(1, requires_grad=True)
w = t.rand(1, requires_grad=True)
y = x * w
# y depends on w, and w.requires_grad = True
print((x.requires_grad, w.requires_grad, y.requires_grad))

with t.no_grad():
    x = t.ones(1)
    w = t.rand(1, requires_grad = True)
    y = x * w
# y depends on w and x; w.requires_grad = True, but y.requires_grad is still False
print((x.requires_grad, w.requires_grad, y.requires_grad))

print(t.set_grad_enabled(False)) # changes the default
x = t.ones(1)
w = t.rand(1, requires_grad = True)
y = x * w
# y depends on w and x; w.requires_grad = True, but y.requires_grad is still False
print((x.requires_grad, w.requires_grad, y.requires_grad))

# restore the default
print(t.set_grad_enabled(True))

a = t.ones(3,4,requires_grad=True)
b = t.ones(3,4,requires_grad=True)
c = a * b

print(a.data) # still a Tensor

print(a.data.requires_grad) # but outside the graph

x = t.ones(3, requires_grad=True)
w = t.rand(3, requires_grad=True)
y = x * w
# y depends on w, and w.requires_grad = True
z = y.sum()
print((x.requires_grad, w.requires_grad, y.requires_grad))

# a non-leaf's grad is freed once computed: y.grad is None
z.backward()
print((x.grad, w.grad, y.grad))

# first way: the grad of an intermediate through autograd.grad
x = t.ones(3, requires_grad=True)
w = t.rand(3, requires_grad=True)
y = x * w
z = y.sum()
# z's gradient with respect to y, calling backward implicitly
print(t.autograd.grad(z, y))

# second way: a hook
# a hook is a function of the gradient, which should return nothing
def variable_hook(grad):
    print('y的梯度：',grad)

x = t.ones(3, requires_grad=True)
w = t.rand(3, requires_grad=True)
y = x * w
# register the hook
hook_handle = y.register_hook(variable_hook)
z = y.sum()
z.backward()

# unless the hook is wanted every time, remove it after use
hook_handle.remove()

from torch.autograd import Function
class MultiplyAdd(Function):

    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w,x)
        output = w * x + b
        return output

    @staticmethod
    def backward(ctx, grad_output):
        w,x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b

x = t.ones(1)
w = t.rand(1, requires_grad = True)
b = t.rand(1, requires_grad = True)
# forward
z = MultiplyAdd.apply(w, x, b)
# backward
z.backward()

# x does not require grad: its derivative is computed, then dropped
print((x.grad, w.grad, b.grad))

x = t.ones(1)
w = t.rand(1, requires_grad = True)
b = t.rand(1, requires_grad = True)
#print('forward')
z = MultiplyAdd.apply(w,x,b)
#print('backward')

# calls MultiplyAdd.backward
# gives grad_w, grad_x, grad_b
print(z.grad_fn)
print(z.grad_fn.apply(t.ones(1)))

import torch as t
import numpy as np

# seed the generator so that the results can be reproduced
t.manual_seed(1000)

def get_fake_data(batch_size=8):
    ''' random data: y = x * 2 + 3, with some noise'''
    x = t.rand(batch_size,1) * 5
    y = x * 2 + 3 + t.randn(batch_size, 1)
    return x, y

# what the x-y distribution looks like (plotted in the book)
x, y = get_fake_data()

# parameters initialised at random
w = t.rand(1,1, requires_grad=True)
b = t.zeros(1,1, requires_grad=True)
losses = np.zeros(500)

lr =0.005 # learning rate

for ii in range(500):
    x, y = get_fake_data(batch_size=32)

    # forward: the loss
    y_pred = x.mm(w) + b.expand_as(y)
    loss = 0.5 * (y_pred - y) ** 2
    loss = loss.sum()
    losses[ii] = loss.item()

    # backward: gradients by autograd
    loss.backward()

    # update the parameters
    w.data.sub_(lr * w.grad.data)
    b.data.sub_(lr * b.grad.data)

    # zero the gradients
    w.grad.data.zero_()
    b.grad.data.zero_()

    if ii%50 ==0:
        # plotted in the book
        x = t.arange(0, 6).float().view(-1, 1)
        y = x.mm(w.data) + b.data.expand_as(x)

        x2, y2 = get_fake_data(batch_size=20)

print(w.item(), b.item())
