# Source: fastai/fastbook clean/17_foundations.ipynb at 098e12d ("Deep Learning for Coders with
#   fastai and PyTorch", chapter 17: A Neural Net from the Foundations, from "Defining and
#   Initializing a Layer" to "Going to PyTorch")
# Edits: torch.manual_seed(0) added (unseeded); the cells that chain 50 random 100x100 products
#   and print their corner are left out (float32 products 50 deep print rounding, not
#   behaviour), as are the SymPy sidebar and the cell using fastai's Module; a cell's displayed
#   last expression is printed with print() (means, standard deviations and sums to 4 digits);
#   at the end the hand-written gradients (`.g`) are compared with PyTorch's autograd on
#   copies that require grad, as the book's text says to check them.

import torch
from math import sqrt
torch.manual_seed(0)

def lin(x, w, b): return x@w + b

x = torch.randn(200, 100)
y = torch.randn(200)

from math import sqrt
w1 = torch.randn(100,50) / sqrt(100)
b1 = torch.zeros(50)
w2 = torch.randn(50,1) / sqrt(50)
b2 = torch.zeros(1)

l1 = lin(x, w1, b1)
print(l1.shape)
print(round(l1.mean().item(), 4), round(l1.std().item(), 4))

def relu(x): return x.clamp_min(0.)

l2 = relu(l1)
print(round(l2.mean().item(), 4), round(l2.std().item(), 4))

x = torch.randn(200, 100)
y = torch.randn(200)

w1 = torch.randn(100,50) * sqrt(2 / 100)
b1 = torch.zeros(50)
w2 = torch.randn(50,1) * sqrt(2 / 50)
b2 = torch.zeros(1)

l1 = lin(x, w1, b1)
l2 = relu(l1)
print(round(l2.mean().item(), 4), round(l2.std().item(), 4))

def model(x):
    l1 = lin(x, w1, b1)
    l2 = relu(l1)
    l3 = lin(l2, w2, b2)
    return l3

out = model(x)
print(out.shape)

def mse(output, targ): return (output.squeeze(-1) - targ).pow(2).mean()

loss = mse(out, y)
print(round(loss.item(), 4))

def mse_grad(inp, targ):
    # grad of loss with respect to output of previous layer
    inp.g = 2. * (inp.squeeze() - targ).unsqueeze(-1) / inp.shape[0]

def relu_grad(inp, out):
    # grad of relu with respect to input activations
    inp.g = (inp>0).float() * out.g

def lin_grad(inp, out, w, b):
    # grad of matmul with respect to input
    inp.g = out.g @ w.t()
    w.g = inp.t() @ out.g
    b.g = out.g.sum(0)

def forward_and_backward(inp, targ):
    # forward pass:
    l1 = inp @ w1 + b1
    l2 = relu(l1)
    out = l2 @ w2 + b2
    # we don't actually need the loss in backward!
    loss = mse(out, targ)

    # backward pass:
    mse_grad(out, targ)
    lin_grad(l2, out, w2, b2)
    relu_grad(l1, l2)
    lin_grad(inp, l1, w1, b1)

forward_and_backward(x, y)
print(w1.g.shape, b1.g.shape, w2.g.shape, b2.g.shape, x.g.shape)
print(round(w2.g.sum().item(), 4), round(b2.g.item(), 4), round(b1.g.abs().sum().item(), 4))

class Relu():
    def __call__(self, inp):
        self.inp = inp
        self.out = inp.clamp_min(0.)
        return self.out

    def backward(self): self.inp.g = (self.inp>0).float() * self.out.g

class Lin():
    def __init__(self, w, b): self.w,self.b = w,b

    def __call__(self, inp):
        self.inp = inp
        self.out = inp@self.w + self.b
        return self.out

    def backward(self):
        self.inp.g = self.out.g @ self.w.t()
        self.w.g = self.inp.t() @ self.out.g
        self.b.g = self.out.g.sum(0)

class Mse():
    def __call__(self, inp, targ):
        self.inp = inp
        self.targ = targ
        self.out = (inp.squeeze() - targ).pow(2).mean()
        return self.out

    def backward(self):
        x = (self.inp.squeeze()-self.targ).unsqueeze(-1)
        self.inp.g = 2.*x/self.targ.shape[0]

class Model():
    def __init__(self, w1, b1, w2, b2):
        self.layers = [Lin(w1,b1), Relu(), Lin(w2,b2)]
        self.loss = Mse()

    def __call__(self, x, targ):
        for l in self.layers: x = l(x)
        return self.loss(x, targ)

    def backward(self):
        self.loss.backward()
        for l in reversed(self.layers): l.backward()

model = Model(w1, b1, w2, b2)

loss = model(x, y)

model.backward()
print(round(loss.item(), 4), round(w2.g.sum().item(), 4), round(b2.g.item(), 4))

class LayerFunction():
    def __call__(self, *args):
        self.args = args
        self.out = self.forward(*args)
        return self.out

    def forward(self):  raise Exception('not implemented')
    def bwd(self):      raise Exception('not implemented')
    def backward(self): self.bwd(self.out, *self.args)

class Relu(LayerFunction):
    def forward(self, inp): return inp.clamp_min(0.)
    def bwd(self, out, inp): inp.g = (inp>0).float() * out.g

class Mse(LayerFunction):
    def forward (self, inp, targ): return (inp.squeeze() - targ).pow(2).mean()
    def bwd(self, out, inp, targ):
        inp.g = 2*(inp.squeeze()-targ).unsqueeze(-1) / targ.shape[0]

from torch.autograd import Function

class MyRelu(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.clamp_min(0.)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i, = ctx.saved_tensors
        return grad_output * (i>0).float()

import torch.nn as nn

class LinearLayer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * sqrt(2/n_in))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x): return x @ self.weight.t() + self.bias

lin = LinearLayer(10,2)
p1,p2 = lin.parameters()
print((p1.shape,p2.shape))

class Model(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(n_in,nh), nn.ReLU(), nn.Linear(nh,n_out))
        self.loss = mse

    def forward(self, x, targ): return self.loss(self.layers(x).squeeze(), targ)

net = Model(100, 50, 1)
print(net)
print(net(x, y).grad_fn)

# the check: autograd on copies that require grad, through MyRelu
xt, w1t, b1t, w2t, b2t = [t.clone().requires_grad_(True) for t in (x, w1, b1, w2, b2)]
loss = mse(MyRelu.apply(xt @ w1t + b1t) @ w2t + b2t, y)
loss.backward()
print(loss.grad_fn, loss.grad_fn.next_functions[0][0])
for name, mine, auto in (("w1", w1.g, w1t.grad), ("b1", b1.g, b1t.grad), ("w2", w2.g, w2t.grad),
                         ("b2", b2.g, b2t.grad), ("x", x.g, xt.grad)):
    print(name, torch.allclose(mine, auto, atol=1e-6), mine.shape == auto.shape)
