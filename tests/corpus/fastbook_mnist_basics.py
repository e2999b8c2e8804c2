# Source: fastai/fastbook clean/04_mnist_basics.ipynb at 098e12d ("Deep Learning for Coders
#   with fastai and PyTorch", chapter 4: Under the Hood: Training a Digit Classifier)
# Edits: no download: the MNIST_SAMPLE images of 3s and 7s are replaced by seeded random
#   28x28 images (torch.manual_seed(42); 100 threes and 100 sevens for training, 50 and 50 for
#   validation, the threes brighter at the centre, the sevens along the top and diagonal);
#   fastai's imports become torch's (`tensor` is torch.tensor, `array` numpy's, `first(dl)` is
#   next(iter(dl)), fastai's DataLoader is torch.utils.data.DataLoader); the plots, the
#   graphviz cells and the fastai Learner cells are removed; the cells in order otherwise; a
#   cell's displayed last expression is printed with print(); the cell that multiplies a leaf
#   in place (`weights[0] *= 1.0001`, an error in this version of the book) runs inside
#   try/except that prints the error as Python would show its last line; the end-to-end
#   example's `speed` is drawn after torch.manual_seed(42).

import torch
import torch.nn as nn
import torch.nn.functional as F
from numpy import array
from torch import tensor
from torch.utils.data import DataLoader

torch.manual_seed(42)
def fake_digits(n, three):
    imgs = torch.rand(n, 28, 28) * 0.3
    if three:
        imgs[:, 8:20, 8:20] += 0.6
    else:
        imgs[:, 4:8, 4:24] += 0.6
        for i in range(20):
            imgs[:, 8 + i, 23 - i] += 0.6
    return (imgs.clamp(0, 1) * 255).to(torch.uint8)
three_imgs, seven_imgs = fake_digits(150, True), fake_digits(150, False)
threes, sevens = list(three_imgs[:100]), list(seven_imgs[:100])
print(len(threes), len(sevens))

seven_tensors = [o for o in sevens]
three_tensors = [o for o in threes]
print(len(three_tensors),len(seven_tensors))

stacked_sevens = torch.stack(seven_tensors).float()/255
stacked_threes = torch.stack(three_tensors).float()/255
print(stacked_threes.shape)

print(len(stacked_threes.shape))

print(stacked_threes.ndim)

mean3 = stacked_threes.mean(0)

mean7 = stacked_sevens.mean(0)

a_3 = stacked_threes[1]

dist_3_abs = (a_3 - mean3).abs().mean()
dist_3_sqr = ((a_3 - mean3)**2).mean().sqrt()
print((dist_3_abs,dist_3_sqr))

dist_7_abs = (a_3 - mean7).abs().mean()
dist_7_sqr = ((a_3 - mean7)**2).mean().sqrt()
print((dist_7_abs,dist_7_sqr))

print((F.l1_loss(a_3.float(),mean7), F.mse_loss(a_3,mean7).sqrt()))

data = [[1,2,3],[4,5,6]]
arr = array (data)
tns = tensor(data)

print(arr)  # numpy

print(tns)  # pytorch

print(tns[1])

print(tns[:,1])

print(tns[1,1:3])

print(tns+1)

print(tns.type())

print(tns*1.5)

valid_3_tens = torch.stack(list(three_imgs[100:]))
valid_3_tens = valid_3_tens.float()/255
valid_7_tens = torch.stack(list(seven_imgs[100:]))
valid_7_tens = valid_7_tens.float()/255
print((valid_3_tens.shape,valid_7_tens.shape))

def mnist_distance(a,b): return (a-b).abs().mean((-1,-2))
print(mnist_distance(a_3, mean3))

valid_3_dist = mnist_distance(valid_3_tens, mean3)
print((valid_3_dist, valid_3_dist.shape))

print(tensor([1,2,3]) + tensor([1,1,1]))

print((valid_3_tens-mean3).shape)

def is_3(x): return mnist_distance(x,mean3) < mnist_distance(x,mean7)

print((is_3(a_3), is_3(a_3).float()))

print(is_3(valid_3_tens))

accuracy_3s =      is_3(valid_3_tens).float() .mean()
accuracy_7s = (1 - is_3(valid_7_tens).float()).mean()

print((accuracy_3s,accuracy_7s,(accuracy_3s+accuracy_7s)/2))

def f(x): return x**2

xt = tensor(3.).requires_grad_()

yt = f(xt)
print(yt)

yt.backward()

print(xt.grad)

xt = tensor([3.,4.,10.]).requires_grad_()
print(xt)

def f(x): return (x**2).sum()

yt = f(xt)
print(yt)

yt.backward()
print(xt.grad)

time = torch.arange(0,20).float(); print(time)

torch.manual_seed(42)
speed = torch.randn(20)*3 + 0.75*(time-9.5)**2 + 1

def f(t, params):
    a,b,c = params
    return a*(t**2) + (b*t) + c

def mse(preds, targets): return ((preds-targets)**2).mean()

params = torch.randn(3).requires_grad_()

#hide
orig_params = params.clone()

preds = f(time, params)

loss = mse(preds, speed)
print(loss)

loss.backward()
print(params.grad)

print(params.grad * 1e-5)

print(params)

lr = 1e-5
params.data -= lr * params.grad.data
params.grad = None

preds = f(time,params)
print(mse(preds, speed))

def apply_step(params, prn=True):
    preds = f(time, params)
    loss = mse(preds, speed)
    loss.backward()
    params.data -= lr * params.grad.data
    params.grad = None
    if prn: print(loss.item())
    return preds

for i in range(10): apply_step(params)

#hide
params = orig_params.detach().requires_grad_()

for _ in range(4): apply_step(params, False)
print(params)

train_x = torch.cat([stacked_threes, stacked_sevens]).view(-1, 28*28)

train_y = tensor([1]*len(threes) + [0]*len(sevens)).unsqueeze(1)
print((train_x.shape,train_y.shape))

dset = list(zip(train_x,train_y))
x,y = dset[0]
print((x.shape,y))

valid_x = torch.cat([valid_3_tens, valid_7_tens]).view(-1, 28*28)
valid_y = tensor([1]*len(valid_3_tens) + [0]*len(valid_7_tens)).unsqueeze(1)
valid_dset = list(zip(valid_x,valid_y))

def init_params(size, std=1.0): return (torch.randn(size)*std).requires_grad_()

weights = init_params((28*28,1))

bias = init_params(1)

print((train_x[0]*weights.T).sum() + bias)

def linear1(xb): return xb@weights + bias
preds = linear1(train_x)
print(preds.shape, preds.requires_grad)

corrects = (preds>0.0).float() == train_y
print(corrects.shape, corrects.dtype)

print(corrects.float().mean().item())

try:
    weights[0] *= 1.0001
except RuntimeError as e:
    print(f"RuntimeError: {e}")

with torch.no_grad(): weights[0] *= 1.0001

preds = linear1(train_x)
print(((preds>0.0).float() == train_y).float().mean().item())

trgts  = tensor([1,0,1])
prds   = tensor([0.9, 0.4, 0.2])

def mnist_loss(predictions, targets):
    return torch.where(targets==1, 1-predictions, predictions).mean()

print(torch.where(trgts==1, 1-prds, prds))

print(mnist_loss(prds,trgts))

print(mnist_loss(tensor([0.9, 0.4, 0.8]),trgts))

def sigmoid(x): return 1/(1+torch.exp(-x))

def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets==1, 1-predictions, predictions).mean()

coll = range(15)
dl = DataLoader(coll, batch_size=5, shuffle=True)
print(list(dl))

weights = init_params((28*28,1))
bias = init_params(1)

dl = DataLoader(dset, batch_size=256)
xb,yb = next(iter(dl))
print((xb.shape,yb.shape))

valid_dl = DataLoader(valid_dset, batch_size=256)

batch = train_x[:4]
print(batch.shape)

preds = linear1(batch)
print(preds)

loss = mnist_loss(preds, train_y[:4])
print(loss)

loss.backward()
print((weights.grad.shape,weights.grad.mean(),bias.grad))

def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()

calc_grad(batch, train_y[:4], linear1)
print((weights.grad.mean(),bias.grad))

calc_grad(batch, train_y[:4], linear1)
print((weights.grad.mean(),bias.grad))

weights.grad.zero_()
bias.grad.zero_();

def train_epoch(model, lr, params):
    for xb,yb in dl:
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad*lr
            p.grad.zero_()

print((preds>0.0).float() == train_y[:4])

def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds>0.5) == yb
    return correct.float().mean()

print(batch_accuracy(linear1(batch), train_y[:4]))

def validate_epoch(model):
    accs = [batch_accuracy(model(xb), yb) for xb,yb in valid_dl]
    return round(torch.stack(accs).mean().item(), 4)

print(validate_epoch(linear1))

lr = 1.
params = weights,bias
train_epoch(linear1, lr, params)
print(validate_epoch(linear1))

for i in range(20):
    train_epoch(linear1, lr, params)
    print(validate_epoch(linear1), end=' ')
print()

linear_model = nn.Linear(28*28,1)

w,b = linear_model.parameters()
print((w.shape,b.shape))

class BasicOptim:
    def __init__(self,params,lr): self.params,self.lr = list(params),lr

    def step(self, *args, **kwargs):
        for p in self.params: p.data -= p.grad.data * self.lr

    def zero_grad(self, *args, **kwargs):
        for p in self.params: p.grad = None

opt = BasicOptim(linear_model.parameters(), lr)

def train_epoch(model):
    for xb,yb in dl:
        calc_grad(xb, yb, model)
        opt.step()
        opt.zero_grad()

print(validate_epoch(linear_model))

def train_model(model, epochs):
    for i in range(epochs):
        train_epoch(model)
        print(validate_epoch(model), end=' ')
    print()

train_model(linear_model, 20)

linear_model = nn.Linear(28*28,1)
opt = torch.optim.SGD(linear_model.parameters(), lr)
train_model(linear_model, 20)

def simple_net(xb):
    res = xb@w1 + b1
    res = res.max(tensor(0.0))
    res = res@w2 + b2
    return res

w1 = init_params((28*28,30))
b1 = init_params(30)
w2 = init_params((30,1))
b2 = init_params(1)
print(simple_net(batch).shape)
