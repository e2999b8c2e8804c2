# Source: fastai/course22p2 nbs/10_activations.ipynb at df93232 (fast.ai "Practical Deep
#   Learning for Coders" part 2, 2022: a CNN's activation means and stds recorded by a
#   SequentialModel, then by `register_forward_hook` with `functools.partial`, a Hook class, a
#   Hooks list that is a context manager and removes its hooks, a HooksCallback for the Learner,
#   `histc` histograms of the activations and the share of them near zero), with the miniai
#   Learner and callbacks it imports (miniai/learner.py, 09_learner).
# Edits: the notebook's code cells in order; a cell's last expression, which the notebook shows,
#   is printed. In place of Fashion-MNIST (a download), 64 training and 32 validation images of
#   seeded uniform noise made with numpy (1x28x28 in [0, 1), as TF.to_tensor gives), labelled by
#   the argmax of a fixed random projection of each image; batches of 16. MetricsCB computes
#   torcheval's Mean and MulticlassAccuracy by hand (torcheval is not installed); ProgressCB
#   (fastprogress) and DeviceCB (CPU only) are left out, so MetricsCB prints its dict. Where the
#   notebook plots, it prints: the recorded means and stds (every other one), the histograms'
#   shapes and sums, and get_min's shares. fastcore's `store_attr`, `L`, `noop`,
#   `risinstance` and `filter_ex` are replaced by their plain equivalents for these uses.
from __future__ import annotations
import random,math,torch,numpy as np
from collections.abc import Mapping
from copy import copy
from functools import partial
from operator import attrgetter
import torch.nn.functional as F
from torch import tensor,nn,optim

torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)


def noop(x=None, *args, **kwargs): return x
def risinstance(types): return lambda o: isinstance(o, types)


# miniai/datasets.py
class DataLoaders:
    def __init__(self, *dls): self.train,self.valid = dls[:2]


# miniai/learner.py
class CancelFitException(Exception): pass
class CancelBatchException(Exception): pass
class CancelEpochException(Exception): pass
class Callback(): order = 0


def run_cbs(cbs, method_nm, learn=None):
    for cb in sorted(cbs, key=attrgetter('order')):
        method = getattr(cb, method_nm, None)
        if method is not None: method(learn)


class SingleBatchCB(Callback):
    order = 1
    def after_batch(self, learn): raise CancelFitException()


def to_cpu(x):
    if isinstance(x, Mapping): return {k:to_cpu(v) for k,v in x.items()}
    if isinstance(x, list): return [to_cpu(o) for o in x]
    if isinstance(x, tuple): return tuple(to_cpu(list(x)))
    res = x.detach().cpu()
    return res.float() if res.dtype==torch.float16 else res


class Mean:
    """torcheval.metrics.Mean: a weighted mean of what it is given, in float64."""
    def reset(self): self.total, self.weight = torch.tensor(0., dtype=torch.float64), 0.
    def update(self, x, weight=1.):
        self.total += (x * weight).sum().double()
        self.weight += weight
    def compute(self): return self.total / self.weight


class MulticlassAccuracy:
    """torcheval.metrics.MulticlassAccuracy (micro average): the fraction of argmaxes right."""
    def reset(self): self.correct, self.total = torch.tensor(0.), torch.tensor(0.)
    def update(self, input, target):
        self.correct += (input.argmax(dim=1) == target).sum()
        self.total += target.shape[0]
    def compute(self): return self.correct / self.total


class MetricsCB(Callback):
    def __init__(self, *ms, **metrics):
        for o in ms: metrics[type(o).__name__] = o
        self.metrics = metrics
        self.all_metrics = copy(metrics)
        self.all_metrics['loss'] = self.loss = Mean()

    def _log(self, d): print(d)
    def before_fit(self, learn): learn.metrics = self
    def before_epoch(self, learn): [o.reset() for o in self.all_metrics.values()]

    def after_epoch(self, learn):
        log = {k:f'{v.compute():.3f}' for k,v in self.all_metrics.items()}
        log['epoch'] = learn.epoch
        log['train'] = 'train' if learn.model.training else 'eval'
        self._log(log)

    def after_batch(self, learn):
        x,y,*_ = to_cpu(learn.batch)
        for m in self.metrics.values(): m.update(to_cpu(learn.preds), y)
        self.loss.update(to_cpu(learn.loss), weight=len(x))


class with_cbs:
    def __init__(self, nm): self.nm = nm
    def __call__(self, f):
        def _f(o, *args, **kwargs):
            try:
                o.callback(f'before_{self.nm}')
                f(o, *args, **kwargs)
                o.callback(f'after_{self.nm}')
            except globals()[f'Cancel{self.nm.title()}Exception']: pass
            finally: o.callback(f'cleanup_{self.nm}')
        return _f


class Learner():
    def __init__(self, model, dls=(0,), loss_func=F.mse_loss, lr=0.1, cbs=None, opt_func=optim.SGD):
        cbs = list(cbs or [])
        self.model,self.dls,self.loss_func,self.lr,self.cbs,self.opt_func = model,dls,loss_func,lr,cbs,opt_func

    @with_cbs('batch')
    def _one_batch(self):
        self.predict()
        self.callback('after_predict')
        self.get_loss()
        self.callback('after_loss')
        if self.training:
            self.backward()
            self.callback('after_backward')
            self.step()
            self.callback('after_step')
            self.zero_grad()

    @with_cbs('epoch')
    def _one_epoch(self):
        for self.iter,self.batch in enumerate(self.dl): self._one_batch()

    def one_epoch(self, training):
        self.model.train(training)
        self.dl = self.dls.train if training else self.dls.valid
        self._one_epoch()

    @with_cbs('fit')
    def _fit(self, train, valid):
        for self.epoch in self.epochs:
            if train: self.one_epoch(True)
            if valid: torch.no_grad()(self.one_epoch)(False)

    def fit(self, n_epochs=1, train=True, valid=True, cbs=None, lr=None):
        cbs = list(cbs or [])
        for cb in cbs: self.cbs.append(cb)
        try:
            self.n_epochs = n_epochs
            self.epochs = range(n_epochs)
            if lr is None: lr = self.lr
            if self.opt_func: self.opt = self.opt_func(self.model.parameters(), lr)
            self._fit(train, valid)
        finally:
            for cb in cbs: self.cbs.remove(cb)

    def __getattr__(self, name):
        if name in ('predict','get_loss','backward','step','zero_grad'): return partial(self.callback, name)
        raise AttributeError(name)

    def callback(self, method_nm): run_cbs(self.cbs, method_nm, self)

    @property
    def training(self): return self.model.training


class TrainLearner(Learner):
    def predict(self): self.preds = self.model(self.batch[0])
    def get_loss(self): self.loss = self.loss_func(self.preds, self.batch[1])
    def backward(self): self.loss.backward()
    def step(self): self.opt.step()
    def zero_grad(self): self.opt.zero_grad()



class TrainCB(Callback):
    def __init__(self, n_inp=1): self.n_inp = n_inp
    def predict(self, learn): learn.preds = learn.model(*learn.batch[:self.n_inp])
    def get_loss(self, learn): learn.loss = learn.loss_func(learn.preds, *learn.batch[self.n_inp:])
    def backward(self, learn): learn.loss.backward()
    def step(self, learn): learn.opt.step()
    def zero_grad(self, learn): learn.opt.zero_grad()


# In[4]
def set_seed(seed, deterministic=False):
    torch.use_deterministic_algorithms(deterministic)
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed)

# In[5]
rng = np.random.default_rng(0)
proj = rng.standard_normal((784, 10)).astype(np.float32)
def images(n):
    x = rng.random((n, 784), dtype=np.float32)
    return tensor(x).view(-1, 1, 28, 28), tensor((x @ proj).argmax(1))
bs = 16
tds = list(zip(*images(64))), list(zip(*images(32)))
dls = DataLoaders(torch.utils.data.DataLoader(tds[0], bs, shuffle=True),
                  torch.utils.data.DataLoader(tds[1], bs*2))
dt = dls.train

# In[7]
def conv(ni, nf, ks=3, act=True):
    res = nn.Conv2d(ni, nf, stride=2, kernel_size=ks, padding=ks//2)
    if act: res = nn.Sequential(res, nn.ReLU())
    return res

def cnn_layers():
    return [
        conv(1 ,8, ks=5),        #14x14
        conv(8 ,16),             #7x7
        conv(16,32),             #4x4
        conv(32,64),             #2x2
        conv(64,10, act=False),  #1x1
        nn.Flatten()]

# In[10]
metrics = MetricsCB(accuracy=MulticlassAccuracy())
cbs = [TrainCB(), metrics]

# In[11]
def fit(model, epochs=1, xtra_cbs=None):
    learn = Learner(model, dls, loss_func=F.cross_entropy, lr=0.6, cbs=cbs+list(xtra_cbs or []))
    learn.fit(epochs)
    return learn

# In[12]
set_seed(1)
learn = fit(nn.Sequential(*cnn_layers()))

# In[15]
class SequentialModel(nn.Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.act_means = [[] for _ in layers]
        self.act_stds  = [[] for _ in layers]

    def __call__(self, x):
        for i,l in enumerate(self.layers):
            x = l(x)
            self.act_means[i].append(to_cpu(x).mean())
            self.act_stds [i].append(to_cpu(x).std ())
        return x

    def __iter__(self): return iter(self.layers)

# In[16]
set_seed(1)
model = SequentialModel(*cnn_layers())
learn = fit(model)

# In[17] (plotted in the notebook)
for l in model.act_means: print(torch.stack(l[::2]))

# In[18]
for l in model.act_stds: print(torch.stack(l[::2]))

# In[21]
set_seed(1)
model = nn.Sequential(*cnn_layers())

# In[23]
act_means = [[] for _ in model]
act_stds  = [[] for _ in model]

# In[24]
def append_stats(i, mod, inp, outp):
    act_means[i].append(to_cpu(outp).mean())
    act_stds [i].append(to_cpu(outp).std())

# In[25]
for i,m in enumerate(model): m.register_forward_hook(partial(append_stats, i))

# In[26]
fit(model)

# In[27]
for o in act_means: print(torch.stack(o[::2]))

# In[30]
class Hook():
    def __init__(self, m, f): self.hook = m.register_forward_hook(partial(f, self))
    def remove(self): self.hook.remove()
    def __del__(self): self.remove()

# In[31]
def append_stats(hook, mod, inp, outp):
    if not hasattr(hook,'stats'): hook.stats = ([],[])
    acts = to_cpu(outp)
    hook.stats[0].append(acts.mean())
    hook.stats[1].append(acts.std())

# In[32]
set_seed(1)
model = nn.Sequential(*cnn_layers())

# In[33]
hooks = [Hook(l, append_stats) for l in model[:5].children()]

# In[34]
learn = fit(model)

# In[35]
for h in hooks:
    print(torch.stack(h.stats[0][::2]))
    h.remove()

# In[37]
class DummyCtxMgr:
    def __enter__(self, *args):
        print("let's go!")
        return self
    def __exit__ (self, *args): print("all done!")
    def hello(self): print("hello.")

# In[38]
with DummyCtxMgr() as dcm: dcm.hello()

# In[39]
class DummyList(list):
    def __delitem__(self, i):
        print(f"Say bye to item {i}")
        super().__delitem__(i)

# In[40]
dml = DummyList([1,3,2])
print(dml)

# In[41]
del(dml[2])
print(dml)

# In[42]
class Hooks(list):
    def __init__(self, ms, f): super().__init__([Hook(m, f) for m in ms])
    def __enter__(self, *args): return self
    def __exit__ (self, *args): self.remove()
    def __del__(self): self.remove()
    def __delitem__(self, i):
        self[i].remove()
        super().__delitem__(i)
    def remove(self):
        for h in self: h.remove()

# In[43]
set_seed(1)
model = nn.Sequential(*cnn_layers())

# In[44]
with Hooks(model, append_stats) as hooks:
    fit(model)
    for h in hooks:
        for i in 0,1: print(torch.stack(h.stats[i][::2]))

# In[46]
class HooksCallback(Callback):
    def __init__(self, hookfunc, mod_filter=noop, on_train=True, on_valid=False, mods=None):
        self.hookfunc,self.mod_filter,self.on_train,self.on_valid,self.mods = hookfunc,mod_filter,on_train,on_valid,mods
        super().__init__()

    def before_fit(self, learn):
        if self.mods: mods=self.mods
        else: mods = list(filter(self.mod_filter, learn.model.modules()))
        self.hooks = Hooks(mods, partial(self._hookfunc, learn))

    def _hookfunc(self, learn, *args, **kwargs):
        if (self.on_train and learn.training) or (self.on_valid and not learn.training): self.hookfunc(*args, **kwargs)

    def after_fit(self, learn): self.hooks.remove()
    def __iter__(self): return iter(self.hooks)
    def __len__(self): return len(self.hooks)

# In[47]
hc = HooksCallback(append_stats, mod_filter=risinstance(nn.Conv2d))

# In[48]
set_seed(1)
model = nn.Sequential(*cnn_layers())
fit(model, xtra_cbs=[hc]);

# In[49]
for h in hc:
    for i in 0,1: print(torch.stack(h.stats[i]))

# In[51]
def append_stats(hook, mod, inp, outp):
    if not hasattr(hook,'stats'): hook.stats = ([],[],[])
    acts = to_cpu(outp)
    hook.stats[0].append(acts.mean())
    hook.stats[1].append(acts.std())
    hook.stats[2].append(acts.abs().histc(40,0,10))

# In[52]
set_seed(1)
model = nn.Sequential(*cnn_layers())
hc = HooksCallback(append_stats, mod_filter=risinstance(nn.Conv2d))
fit(model, xtra_cbs=[hc]);

# In[53]
def get_hist(h): return torch.stack(h.stats[2]).t().float().log1p()

# In[54] (drawn as images in the notebook)
for h in hc: print(get_hist(h).shape, get_hist(h).sum(0))

# In[55]
def get_min(h):
    h1 = torch.stack(h.stats[2]).t().float()
    return h1[0]/h1.sum(0)

# In[56]
for h in hc: print(get_min(h))

# In[58]
class ActivationStats(HooksCallback):
    def __init__(self, mod_filter=noop): super().__init__(append_stats, mod_filter)

    def color_dim(self):
        for h in self: print(get_hist(h)[:8])

    def dead_chart(self):
        for h in self: print(get_min(h))

    def plot_stats(self):
        for h in self:
            for i in 0,1: print(torch.stack(h.stats[i]))

# In[59]
astats = ActivationStats(risinstance(nn.Conv2d))

# In[60]
set_seed(1)
model = nn.Sequential(*cnn_layers())
fit(model, xtra_cbs=[astats]);

# In[61]
astats.color_dim()

# In[62]
astats.dead_chart()

# In[63]
astats.plot_stats()
