# Source: fastai/course22p2 nbs/03_backprop.ipynb at df93232 (fast.ai "Practical Deep Learning
#   for Coders" part 2, 2022: a two-layer net's gradients by hand as `.g` attributes, the layer
#   classes, a Module base class, then nn.Module and autograd; printing set to precision=2,
#   sci_mode=False)
# Edits: the notebook's code cells in order; a cell's last expression, which the notebook shows,
#   is printed. In place of MNIST (a download), seeded uniform random images (1000 for training,
#   200 for validation, 784 pixels, float32 in [0, 1) like mnist.pkl.gz's) and random labels
#   0-9, made with numpy as arrays, like the pickle's; the cells that read the pickle, draw with
#   matplotlib and use sympy are left out; fastcore's `test_close` is defined here as fastcore
#   defines it for tensors (every |a-b| < eps).
import pickle,gzip,math,os,time,shutil,torch, numpy as np
from pathlib import Path
from torch import tensor
torch.manual_seed(42)

torch.set_printoptions(precision=2, linewidth=125, sci_mode=False)
np.set_printoptions(precision=2, linewidth=125)


def test_close(a, b, eps=1e-5):
    assert (abs(a - b) < eps).all(), f"close:\n{a}\n{b}"


rng = np.random.default_rng(0)
x_train = rng.random((1000, 784), dtype=np.float32)
y_train = rng.integers(0, 10, 1000)
x_valid = rng.random((200, 784), dtype=np.float32)
y_valid = rng.integers(0, 10, 200)
x_train, y_train, x_valid, y_valid = map(tensor, [x_train, y_train, x_valid, y_valid])

# In[4]
n,m = x_train.shape
c = y_train.max()+1
print((n,m,c))

# In[5]
# num hidden
nh = 50

# In[6]
w1 = torch.randn(m,nh)
b1 = torch.zeros(nh)
w2 = torch.randn(nh,1)
b2 = torch.zeros(1)

# In[7]
def lin(x, w, b): return x@w + b

# In[8]
t = lin(x_valid, w1, b1)
print(t.shape)

# In[9]
def relu(x): return x.clamp_min(0.)

# In[10]
t = relu(t)
print(t)

# In[11]
def model(xb):
    l1 = lin(xb, w1, b1)
    l2 = relu(l1)
    return lin(l2, w2, b2)

# In[12]
res = model(x_valid)
print(res.shape)

# In[15]
print((res.shape,y_valid.shape))

# In[16]
print((res-y_valid).shape)

# In[18]
print(res[:,0].shape)

# In[19]
print(res.squeeze().shape)

# In[20]
print((res[:,0]-y_valid).shape)

# In[21]
y_train,y_valid = y_train.float(),y_valid.float()

preds = model(x_train)
print(preds.shape)

# In[22]
def mse(output, targ): return (output[:,0]-targ).pow(2).mean()

# In[23]
print(mse(preds, y_train))

# In[27]
def lin_grad(inp, out, w, b):
    # grad of matmul with respect to input
    inp.g = out.g @ w.t()
    w.g = (inp.unsqueeze(-1) * out.g.unsqueeze(1)).sum(0)
    b.g = out.g.sum(0)

# In[28]
def forward_and_backward(inp, targ):
    # forward pass:
    l1 = lin(inp, w1, b1)
    l2 = relu(l1)
    out = lin(l2, w2, b2)
    diff = out[:,0]-targ
    loss = diff.pow(2).mean()

    # backward pass:
    out.g = 2.*diff[:,None] / inp.shape[0]
    lin_grad(l2, out, w2, b2)
    l1.g = (l1>0).float() * l2.g
    lin_grad(inp, l1, w1, b1)

# In[29]
forward_and_backward(x_train, y_train)

# In[30]
# Save for testing against later
def get_grad(x): return x.g.clone()
chks = w1,w2,b1,b2,x_train
grads = w1g,w2g,b1g,b2g,ig = tuple(map(get_grad, chks))

# In[32]
def mkgrad(x): return x.clone().requires_grad_(True)
ptgrads = w12,w22,b12,b22,xt2 = tuple(map(mkgrad, chks))

# In[33]
def forward(inp, targ):
    l1 = lin(inp, w12, b12)
    l2 = relu(l1)
    out = lin(l2, w22, b22)
    return mse(out, targ)

# In[34]
loss = forward(xt2, y_train)
loss.backward()

# In[35]
for a,b in zip(grads, ptgrads): test_close(a, b.grad, eps=0.01)

# In[38]
class Relu():
    def __call__(self, inp):
        self.inp = inp
        self.out = inp.clamp_min(0.)
        return self.out

    def backward(self): self.inp.g = (self.inp>0).float() * self.out.g

# In[39]
class Lin():
    def __init__(self, w, b): self.w,self.b = w,b

    def __call__(self, inp):
        self.inp = inp
        self.out = lin(inp, self.w, self.b)
        return self.out

    def backward(self):
        self.inp.g = self.out.g @ self.w.t()
        self.w.g = self.inp.t() @ self.out.g
        self.b.g = self.out.g.sum(0)

# In[40]
class Mse():
    def __call__(self, inp, targ):
        self.inp,self.targ = inp,targ
        self.out = mse(inp, targ)
        return self.out

    def backward(self):
        self.inp.g = 2. * (self.inp.squeeze() - self.targ).unsqueeze(-1) / self.targ.shape[0]

# In[41]
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

# In[42]
model = Model(w1, b1, w2, b2)

# In[43]
loss = model(x_train, y_train)

# In[44]
model.backward()

# In[45]
test_close(w2g, w2.g, eps=0.01)
test_close(b2g, b2.g, eps=0.01)
test_close(w1g, w1.g, eps=0.01)
test_close(b1g, b1.g, eps=0.01)
test_close(ig, x_train.g, eps=0.01)

# In[47]
class Module():
    def __call__(self, *args):
        self.args = args
        self.out = self.forward(*args)
        return self.out

    def forward(self): raise Exception('not implemented')
    def backward(self): self.bwd(self.out, *self.args)
    def bwd(self): raise Exception('not implemented')

# In[48]
class Relu(Module):
    def forward(self, inp): return inp.clamp_min(0.)
    def bwd(self, out, inp): inp.g = (inp>0).float() * out.g

# In[49]
class Lin(Module):
    def __init__(self, w, b): self.w,self.b = w,b
    def forward(self, inp): return inp@self.w + self.b
    def bwd(self, out, inp):
        inp.g = self.out.g @ self.w.t()
        self.w.g = inp.t() @ self.out.g
        self.b.g = self.out.g.sum(0)

# In[50]
class Mse(Module):
    def forward (self, inp, targ): return (inp.squeeze() - targ).pow(2).mean()
    def bwd(self, out, inp, targ): inp.g = 2*(inp.squeeze()-targ).unsqueeze(-1) / targ.shape[0]

# In[51]
model = Model(w1, b1, w2, b2)

# In[52]
loss = model(x_train, y_train)

# In[53]
model.backward()

# In[54]
test_close(w2g, w2.g, eps=0.01)
test_close(b2g, b2.g, eps=0.01)
test_close(w1g, w1.g, eps=0.01)
test_close(b1g, b1.g, eps=0.01)
test_close(ig, x_train.g, eps=0.01)

# In[56]
from torch import nn
import torch.nn.functional as F

# In[57]
class Linear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = torch.randn(n_in,n_out).requires_grad_()
        self.b = torch.zeros(n_out).requires_grad_()
    def forward(self, inp): return inp@self.w + self.b

# In[58]
class Model(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = [Linear(n_in,nh), nn.ReLU(), Linear(nh,n_out)]

    def __call__(self, x, targ):
        for l in self.layers: x = l(x)
        return F.mse_loss(x, targ[:,None])

# In[59]
model = Model(m, nh, 1)
loss = model(x_train, y_train)
loss.backward()

# In[60]
l0 = model.layers[0]
print(l0.b.grad)
