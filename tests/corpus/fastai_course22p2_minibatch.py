# Source: fastai/course22p2 nbs/04_minibatch_training.ipynb at df93232 (fast.ai "Practical Deep
#   Learning for Coders" part 2, 2022: log_softmax and logsumexp by hand, nll by integer array
#   indexing, a training loop updating weights under no_grad, nn.Module's registration, a
#   hand-written Optimizer, Dataset, DataLoader and Samplers, then torch.utils.data's)
# Edits: the notebook's code cells in order; a cell's last expression, which the notebook shows,
#   is printed. In place of MNIST (a download), seeded uniform random images (1000 for training,
#   200 for validation, 784 pixels, float32 in [0, 1)) made with numpy like mnist.pkl.gz's, and
#   as labels the argmax of a fixed random projection of each image (learnable, so that training
#   settles as on MNIST). Left out: the matplotlib cells (`plt.imshow`; their `yb[0]` kept),
#   the cell that shows `m1.named_children()` (a generator's memory address), the cells that
#   run a multiprocessing Pool, `%time` and nbdev's export. fastcore's `test_close`,
#   `store_attr` and `chunked` are defined here as fastcore defines them for these uses.
#   `random.seed(0)` added (the Sampler shuffles with Python's random, unseeded).
import pickle,gzip,math,os,time,shutil,torch,numpy as np
from pathlib import Path
from torch import tensor,nn
import torch.nn.functional as F
import inspect
import random
random.seed(0)


def test_close(a, b, eps=1e-5):
    assert (abs(a - b) < eps).all(), f"close:\n{a}\n{b}"


def store_attr():
    """fastcore's store_attr() with no arguments: the caller's arguments become attributes."""
    frame = inspect.currentframe().f_back
    args = inspect.getargvalues(frame)
    self = args.locals[args.args[0]]
    for name in args.args[1:]:
        setattr(self, name, args.locals[name])


def chunked(it, chunk_sz, drop_last=False):
    """fastcore's chunked: lists of chunk_sz items from it (a shorter last one unless drop_last)."""
    it = iter(it)
    while True:
        res = [o for _, o in zip(range(chunk_sz), it)]
        if not res or (drop_last and len(res) < chunk_sz):
            return
        yield res


torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)
torch.manual_seed(1)

rng = np.random.default_rng(0)
proj = rng.standard_normal((784, 10)).astype(np.float32)
x_train = rng.random((1000, 784), dtype=np.float32)
y_train = (x_train @ proj).argmax(1)
x_valid = rng.random((200, 784), dtype=np.float32)
y_valid = (x_valid @ proj).argmax(1)
x_train, y_train, x_valid, y_valid = map(tensor, [x_train, y_train, x_valid, y_valid])

# In[5]
n,m = x_train.shape
c = y_train.max()+1
nh = 50

# In[6]
class Model(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = [nn.Linear(n_in,nh), nn.ReLU(), nn.Linear(nh,n_out)]

    def __call__(self, x):
        for l in self.layers: x = l(x)
        return x

# In[7]
model = Model(m, nh, 10)
pred = model(x_train)
print(pred.shape)

# In[10]
def log_softmax(x): return (x.exp()/(x.exp().sum(-1,keepdim=True))).log()

# In[11]
print(log_softmax(pred))

# In[13]
def log_softmax(x): return x - x.exp().sum(-1,keepdim=True).log()

# In[15]
def logsumexp(x):
    m = x.max(-1)[0]
    return m + (x-m[:,None]).exp().sum(-1).log()

# In[17]
def log_softmax(x): return x - x.logsumexp(-1,keepdim=True)

# In[18]
test_close(logsumexp(pred), pred.logsumexp(-1))
sm_pred = log_softmax(pred)
print(sm_pred)

# In[20]
print(y_train[:3])

# In[21]
print((sm_pred[0,5],sm_pred[1,0],sm_pred[2,4]))

# In[22]
print(sm_pred[[0,1,2], y_train[:3]])

# In[23]
def nll(input, target): return -input[range(target.shape[0]), target].mean()

# In[24]
loss = nll(sm_pred, y_train)
print(loss)

# In[26]
test_close(F.nll_loss(F.log_softmax(pred, -1), y_train), loss, 1e-3)

# In[28]
test_close(F.cross_entropy(pred, y_train), loss, 1e-3)

# In[31]
loss_func = F.cross_entropy

# In[32]
bs=50                  # batch size

xb = x_train[0:bs]     # a mini-batch from x
preds = model(xb)      # predictions
print((preds[0], preds.shape))

# In[33]
yb = y_train[0:bs]
print(yb)

# In[34]
print(loss_func(preds, yb))

# In[35]
print(preds.argmax(dim=1))

# In[36]
#|export
def accuracy(out, yb): return (out.argmax(dim=1)==yb).float().mean()

# In[37]
print(accuracy(preds, yb))

# In[38]
lr = 0.5   # learning rate
epochs = 3 # how many epochs to train for

# In[39]
#|export
def report(loss, preds, yb): print(f'{loss:.2f}, {accuracy(preds, yb):.2f}')

# In[40]
xb,yb = x_train[:bs],y_train[:bs]
preds = model(xb)
report(loss_func(preds, yb), preds, yb)

# In[41]
for epoch in range(epochs):
    for i in range(0, n, bs):
        s = slice(i, min(n,i+bs))
        xb,yb = x_train[s],y_train[s]
        preds = model(xb)
        loss = loss_func(preds, yb)
        loss.backward()
        with torch.no_grad():
            for l in model.layers:
                if hasattr(l, 'weight'):
                    l.weight -= l.weight.grad * lr
                    l.bias   -= l.bias.grad   * lr
                    l.weight.grad.zero_()
                    l.bias  .grad.zero_()
    report(loss, preds, yb)

# In[44]
m1 = nn.Module()
m1.foo = nn.Linear(3,4)
print(m1)

# In[45]
print(list(m1.named_children()))

# In[47]
print(list(m1.parameters()))

# In[48]
class MLP(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.l1 = nn.Linear(n_in,nh)
        self.l2 = nn.Linear(nh,n_out)
        self.relu = nn.ReLU()

    def forward(self, x): return self.l2(self.relu(self.l1(x)))

# In[49]
model = MLP(m, nh, 10)
print(model.l1)

# In[50]
print(model)

# In[51]
for name,l in model.named_children(): print(f"{name}: {l}")

# In[52]
for p in model.parameters(): print(p.shape)

# In[53]
def fit():
    for epoch in range(epochs):
        for i in range(0, n, bs):
            s = slice(i, min(n,i+bs))
            xb,yb = x_train[s],y_train[s]
            preds = model(xb)
            loss = loss_func(preds, yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters(): p -= p.grad * lr
                model.zero_grad()
        report(loss, preds, yb)

# In[54]
fit()

# In[56]
class MyModule:
    def __init__(self, n_in, nh, n_out):
        self._modules = {}
        self.l1 = nn.Linear(n_in,nh)
        self.l2 = nn.Linear(nh,n_out)

    def __setattr__(self,k,v):
        if not k.startswith("_"): self._modules[k] = v
        super().__setattr__(k,v)

    def __repr__(self): return f'{self._modules}'

    def parameters(self):
        for l in self._modules.values(): yield from l.parameters()

# In[57]
mdl = MyModule(m,nh,10)
print(mdl)

# In[58]
for p in mdl.parameters(): print(p.shape)

# In[60]
from functools import reduce

# In[62]
layers = [nn.Linear(m,nh), nn.ReLU(), nn.Linear(nh,10)]

# In[63]
class Model(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers
        for i,l in enumerate(self.layers): self.add_module(f'layer_{i}', l)

    def forward(self, x): return reduce(lambda val,layer: layer(val), self.layers, x)

# In[64]
model = Model(layers)
print(model)

# In[65]
print(model(xb).shape)

# In[68]
class SequentialModel(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        for l in self.layers: x = l(x)
        return x

# In[69]
model = SequentialModel(layers)
print(model)

# In[70]
fit()

# In[73]
model = nn.Sequential(nn.Linear(m,nh), nn.ReLU(), nn.Linear(nh,10))

# In[74]
fit()
print((loss_func(model(xb), yb), accuracy(model(xb), yb)))

# In[75]
print(model)

# In[77]
class Optimizer():
    def __init__(self, params, lr=0.5): self.params,self.lr=list(params),lr

    def step(self):
        with torch.no_grad():
            for p in self.params: p -= p.grad * self.lr

    def zero_grad(self):
        for p in self.params: p.grad.data.zero_()

# In[78]
model = nn.Sequential(nn.Linear(m,nh), nn.ReLU(), nn.Linear(nh,10))

# In[79]
opt = Optimizer(model.parameters())

# In[80]
for epoch in range(epochs):
    for i in range(0, n, bs):
        s = slice(i, min(n,i+bs))
        xb,yb = x_train[s],y_train[s]
        preds = model(xb)
        loss = loss_func(preds, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    report(loss, preds, yb)

# In[82]
from torch import optim

# In[83]
def get_model():
    model = nn.Sequential(nn.Linear(m,nh), nn.ReLU(), nn.Linear(nh,10))
    return model, optim.SGD(model.parameters(), lr=lr)

# In[84]
model,opt = get_model()
print(loss_func(model(xb), yb))

# In[85]
for epoch in range(epochs):
    for i in range(0, n, bs):
        s = slice(i, min(n,i+bs))
        xb,yb = x_train[s],y_train[s]
        preds = model(xb)
        loss = loss_func(preds, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    report(loss, preds, yb)

# In[89]
#|export
class Dataset():
    def __init__(self, x, y): self.x,self.y = x,y
    def __len__(self): return len(self.x)
    def __getitem__(self, i): return self.x[i],self.y[i]

# In[90]
train_ds,valid_ds = Dataset(x_train, y_train),Dataset(x_valid, y_valid)
assert len(train_ds)==len(x_train)
assert len(valid_ds)==len(x_valid)

# In[91]
xb,yb = train_ds[0:5]
assert xb.shape==(5,28*28)
assert yb.shape==(5,)
print((xb,yb))

# In[92]
model,opt = get_model()

# In[93]
for epoch in range(epochs):
    for i in range(0, n, bs):
        xb,yb = train_ds[i:min(n,i+bs)]
        preds = model(xb)
        loss = loss_func(preds, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    report(loss, preds, yb)

# In[96]
class DataLoader():
    def __init__(self, ds, bs): self.ds,self.bs = ds,bs
    def __iter__(self):
        for i in range(0, len(self.ds), self.bs): yield self.ds[i:i+self.bs]

# In[97]
train_dl = DataLoader(train_ds, bs)
valid_dl = DataLoader(valid_ds, bs)

# In[98]
xb,yb = next(iter(valid_dl))
print(xb.shape)

# In[99]
print(yb)

# In[100]
print(yb[0])

# In[101]
model,opt = get_model()

# In[102]
def fit():
    for epoch in range(epochs):
        for xb,yb in train_dl:
            preds = model(xb)
            loss = loss_func(preds, yb)
            loss.backward()
            opt.step()
            opt.zero_grad()
        report(loss, preds, yb)

# In[103]
fit()
print((loss_func(model(xb), yb), accuracy(model(xb), yb)))

# In[106]
import random

# In[107]
class Sampler():
    def __init__(self, ds, shuffle=False): self.n,self.shuffle = len(ds),shuffle
    def __iter__(self):
        res = list(range(self.n))
        if self.shuffle: random.shuffle(res)
        return iter(res)

# In[108]
from itertools import islice

# In[109]
ss = Sampler(train_ds)

# In[110]
it = iter(ss)
for o in range(5): print(next(it))

# In[111]
print(list(islice(ss, 5)))

# In[112]
ss = Sampler(train_ds, shuffle=True)
print(list(islice(ss, 5)))

# In[114]
class BatchSampler():
    def __init__(self, sampler, bs, drop_last=False): store_attr()
    def __iter__(self): yield from chunked(iter(self.sampler), self.bs, drop_last=self.drop_last)

# In[115]
batchs = BatchSampler(ss, 4)
print(list(islice(batchs, 5)))

# In[116]
def collate(b):
    xs,ys = zip(*b)
    return torch.stack(xs),torch.stack(ys)

# In[117]
class DataLoader():
    def __init__(self, ds, batchs, collate_fn=collate): store_attr()
    def __iter__(self): yield from (self.collate_fn(self.ds[i] for i in b) for b in self.batchs)

# In[118]
train_samp = BatchSampler(Sampler(train_ds, shuffle=True ), bs)
valid_samp = BatchSampler(Sampler(valid_ds, shuffle=False), bs)

# In[119]
train_dl = DataLoader(train_ds, batchs=train_samp)
valid_dl = DataLoader(valid_ds, batchs=valid_samp)

# In[120]
xb,yb = next(iter(valid_dl))
print(yb[0])

# In[121]
print((xb.shape,yb.shape))

# In[122]
model,opt = get_model()

# In[123]
fit()

# In[126]
print(train_ds[[3,6,8,1]])

# In[127]
print(train_ds.__getitem__([3,6,8,1]))

# In[128]
for o in map(train_ds.__getitem__, ([3,6],[8,1])): print(o)

# In[133]
#|export
from torch.utils.data import DataLoader, SequentialSampler, RandomSampler, BatchSampler

# In[134]
train_samp = BatchSampler(RandomSampler(train_ds),     bs, drop_last=False)
valid_samp = BatchSampler(SequentialSampler(valid_ds), bs, drop_last=False)

# In[135]
train_dl = DataLoader(train_ds, batch_sampler=train_samp, collate_fn=collate)
valid_dl = DataLoader(valid_ds, batch_sampler=valid_samp, collate_fn=collate)

# In[136]
model,opt = get_model()
fit()
print((loss_func(model(xb), yb), accuracy(model(xb), yb)))

# In[138]
train_dl = DataLoader(train_ds, bs, sampler=RandomSampler(train_ds), collate_fn=collate)
valid_dl = DataLoader(valid_ds, bs, sampler=SequentialSampler(valid_ds), collate_fn=collate)

# In[140]
train_dl = DataLoader(train_ds, bs, shuffle=True, drop_last=True, num_workers=2)
valid_dl = DataLoader(valid_ds, bs, shuffle=False, num_workers=2)

# In[141]
model,opt = get_model()
fit()

print((loss_func(model(xb), yb), accuracy(model(xb), yb)))

# In[143]
print(train_ds[[4,6,7]])

# In[145]
train_dl = DataLoader(train_ds, sampler=train_samp)
valid_dl = DataLoader(valid_ds, sampler=valid_samp)

# In[146]
xb,yb = next(iter(train_dl))
print((xb.shape,yb.shape))

# In[149]
#|export
def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb,yb in train_dl:
            loss = loss_func(model(xb), yb)
            loss.backward()
            opt.step()
            opt.zero_grad()

        model.eval()
        with torch.no_grad():
            tot_loss,tot_acc,count = 0.,0.,0
            for xb,yb in valid_dl:
                pred = model(xb)
                n = len(xb)
                count += n
                tot_loss += loss_func(pred,yb).item()*n
                tot_acc  += accuracy (pred,yb).item()*n
        print(epoch, tot_loss/count, tot_acc/count)
    return tot_loss/count, tot_acc/count

# In[150]
#|export
def get_dls(train_ds, valid_ds, bs, **kwargs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=True, **kwargs),
            DataLoader(valid_ds, batch_size=bs*2, **kwargs))

# In[152]
train_dl,valid_dl = get_dls(train_ds, valid_ds, bs)
model,opt = get_model()

# In[153]
loss,acc = fit(5, model, loss_func, opt, train_dl, valid_dl)
