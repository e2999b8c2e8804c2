# Source: fastai/course22p2 nbs/12_accel_sgd.ipynb at df93232 (fast.ai "Practical Deep Learning
#   for Coders" part 2, 2022: SGD with weight decay, Momentum, RMSProp and Adam written as
#   optimizers that update `p` from `p.grad` under no_grad and keep their state as attributes of
#   the parameters; torch.optim's state and param_groups; CosineAnnealingLR and OneCycleLR
#   stepped by callbacks), with the miniai code it imports: the Learner and callbacks of
#   miniai/learner.py (09_learner), Hook/Hooks/ActivationStats of miniai/activations.py
#   (10_activations: forward hooks on modules, `histc` of the activations), and GeneralRelu,
#   init_weights, conv and get_model of miniai/init.py (11_initializing).
# Edits: the notebook's code cells in order; a cell's last expression, which the notebook shows,
#   is printed. In place of Fashion-MNIST (a download), 64 training and 32 validation images of
#   seeded uniform noise made with numpy (1x28x28, normalised as the notebook's transform), and
#   as labels the argmax of a fixed random projection of each image; batches of 16, and each
#   `fit` runs for 2 epochs rather than 3 or 5. MetricsCB computes torcheval's Mean and
#   MulticlassAccuracy by hand (torcheval is not installed), ProgressCB (fastprogress) and
#   DeviceCB (CPU only) are left out, so MetricsCB prints its dict. The plotting cells are left
#   out; `astats.color_dim()` prints the histograms' shapes and each layer's first means and
#   stds instead, `sched_lrs` and `rec.plot()` print the recorded values. Left out: the cell
#   listing `dir(lr_scheduler)`, the one listing `dir(opt)` (every public attribute of the
#   module and class), and nbdev's export. fastcore's `store_attr`, `L` and `risinstance` are
#   replaced by their plain equivalents for these uses.
# Waiting: the hand-written SGD, Momentum, RMSProp and Adam fits, the activation statistics, the
#   optimizer's state and param_groups, and every learning rate and beta1 CosineAnnealingLR and
#   OneCycleLR set match byte for byte, and so do the torch.optim.AdamW fits' training losses;
#   their validation losses differ in the third digit. get_model's convolutions keep their bias
#   before BatchNorm2d (conv's `isinstance(norm, ...)` is given the class, not an instance), so
#   that bias's gradient is zero but for float32 rounding (about 5e-8, of either sign, from the
#   sum over batch and pixels in MKL's order, which minigrad does not repeat). The hand-written
#   optimizers (eps 1e-5) leave such a gradient near zero; AdamW (eps 1e-8) divides it by its
#   own size and moves the bias by about lr either way, which the running mean BatchNorm2d
#   keeps for evaluation shows.
import math, random
from collections.abc import Mapping
from copy import copy
from functools import partial
from operator import attrgetter

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim, tensor
from torch.nn import init
from torch.optim import lr_scheduler
from torch.utils.data import DataLoader


# miniai/activations.py
def set_seed(seed, deterministic=False):
    torch.use_deterministic_algorithms(deterministic)
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed)


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


# miniai/activations.py
class Hook():
    def __init__(self, m, f): self.hook = m.register_forward_hook(partial(f, self))
    def remove(self): self.hook.remove()
    def __del__(self): self.remove()


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


class HooksCallback(Callback):
    def __init__(self, hookfunc, mod_filter=lambda o: True, on_train=True, on_valid=False, mods=None):
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


def append_stats(hook, mod, inp, outp):
    if not hasattr(hook,'stats'): hook.stats = ([],[],[])
    acts = to_cpu(outp)
    hook.stats[0].append(acts.mean())
    hook.stats[1].append(acts.std())
    hook.stats[2].append(acts.abs().histc(40,0,10))


def get_hist(h): return torch.stack(h.stats[2]).t().float().log1p()


class ActivationStats(HooksCallback):
    def __init__(self, mod_filter=lambda o: True): super().__init__(append_stats, mod_filter)

    def color_dim(self):
        # the notebook draws get_hist(h) of each hook as an image
        for h in self:
            print(get_hist(h).shape, torch.stack(h.stats[0][:4]), torch.stack(h.stats[1][:4]))


# miniai/init.py
class GeneralRelu(nn.Module):
    def __init__(self, leak=None, sub=None, maxv=None):
        super().__init__()
        self.leak,self.sub,self.maxv = leak,sub,maxv

    def forward(self, x):
        x = F.leaky_relu(x,self.leak) if self.leak is not None else F.relu(x)
        if self.sub is not None: x -= self.sub
        if self.maxv is not None: x.clamp_max_(self.maxv)
        return x


def init_weights(m, leaky=0.):
    if isinstance(m, (nn.Conv1d,nn.Conv2d,nn.Conv3d)): init.kaiming_normal_(m.weight, a=leaky)


def conv(ni, nf, ks=3, stride=2, act=nn.ReLU, norm=None, bias=None):
    if bias is None: bias = not isinstance(norm, (nn.BatchNorm1d,nn.BatchNorm2d,nn.BatchNorm3d))
    layers = [nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks//2, bias=bias)]
    if norm: layers.append(norm(nf))
    if act: layers.append(act())
    return nn.Sequential(*layers)


def get_model(act=nn.ReLU, nfs=None, norm=None):
    if nfs is None: nfs = [1,8,16,32,64]
    layers = [conv(nfs[i], nfs[i+1], act=act, norm=norm) for i in range(len(nfs)-1)]
    return nn.Sequential(*layers, conv(nfs[-1],10, act=None, norm=False, bias=True),
                         nn.Flatten())


# In[4]
torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)
torch.manual_seed(1)
set_seed(42)

# In[5]
rng = np.random.default_rng(0)
proj = rng.standard_normal((784, 10)).astype(np.float32)
def images(n):
    x = rng.random((n, 784), dtype=np.float32)
    return x, (x @ proj).argmax(1)
(xt, yt), (xv, yv) = images(64), images(32)
bs = 16
xmean,xstd = 0.28, 0.35
def transformi(x): return (tensor(x).view(-1, 1, 28, 28)-xmean)/xstd
tds = list(zip(transformi(xt), tensor(yt))), list(zip(transformi(xv), tensor(yv)))
dls = DataLoaders(DataLoader(tds[0], bs, shuffle=True), DataLoader(tds[1], bs*2))

# In[6]
metrics = MetricsCB(accuracy=MulticlassAccuracy())
astats = ActivationStats(lambda o: isinstance(o, GeneralRelu))
cbs = [metrics, astats]
act_gr = partial(GeneralRelu, leak=0.1, sub=0.4)
iw = partial(init_weights, leaky=0.1)

# In[9]
class SGD:
    def __init__(self, params, lr, wd=0.):
        params = list(params)
        self.params,self.lr,self.wd = params,lr,wd
        self.i = 0

    def step(self):
        with torch.no_grad():
            for p in self.params:
                self.reg_step(p)
                self.opt_step(p)
        self.i +=1

    def opt_step(self, p): p -= p.grad * self.lr
    def reg_step(self, p):
        if self.wd != 0: p *= 1 - self.lr*self.wd

    def zero_grad(self):
        for p in self.params: p.grad.data.zero_()

# In[10]
set_seed(42)
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
learn = TrainLearner(model, dls, F.cross_entropy, lr=0.4, cbs=cbs, opt_func=SGD)

# In[11]
learn.fit(2)

# In[14]
xs = torch.linspace(-4, 4, 100)
ys = 1 - (xs/3) ** 2 + torch.randn(100) * 0.1

# In[15] (the plot of each beta's running average: its last values printed)
betas = [0.5,0.7,0.9,0.99]
for beta in betas:
    avg,res = 0,[]
    for yi in ys:
        avg = beta*avg + (1-beta)*yi
        res.append(avg)
    print(f'beta={beta}', np.array(res)[-3:], res[-1])

# In[16]
class Momentum(SGD):
    def __init__(self, params, lr, wd=0., mom=0.9):
        super().__init__(params, lr=lr, wd=wd)
        self.mom=mom

    def opt_step(self, p):
        if not hasattr(p, 'grad_avg'): p.grad_avg = torch.zeros_like(p.grad)
        p.grad_avg = p.grad_avg*self.mom + p.grad*(1-self.mom)
        p -= self.lr * p.grad_avg

# In[17]
set_seed(42)
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
learn = TrainLearner(model, dls, F.cross_entropy, lr=1.5, cbs=cbs, opt_func=Momentum)

# In[18]
learn.fit(2)

# In[19]
astats.color_dim()

# In[21]
class RMSProp(SGD):
    def __init__(self, params, lr, wd=0., sqr_mom=0.99, eps=1e-5):
        super().__init__(params, lr=lr, wd=wd)
        self.sqr_mom,self.eps = sqr_mom,eps

    def opt_step(self, p):
        if not hasattr(p, 'sqr_avg'): p.sqr_avg = p.grad**2
        p.sqr_avg = p.sqr_avg*self.sqr_mom + p.grad**2*(1-self.sqr_mom)
        p -= self.lr * p.grad/(p.sqr_avg.sqrt() + self.eps)

# In[22]
set_seed(42)
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
learn = TrainLearner(model, dls, F.cross_entropy, lr=3e-3, cbs=cbs, opt_func=RMSProp)
learn.fit(2)

# In[23]
astats.color_dim()

# In[25]
class Adam(SGD):
    def __init__(self, params, lr, wd=0., beta1=0.9, beta2=0.99, eps=1e-5):
        super().__init__(params, lr=lr, wd=wd)
        self.beta1,self.beta2,self.eps = beta1,beta2,eps

    def opt_step(self, p):
        if not hasattr(p, 'avg'): p.avg = torch.zeros_like(p.grad.data)
        if not hasattr(p, 'sqr_avg'): p.sqr_avg = torch.zeros_like(p.grad.data)
        p.avg = self.beta1*p.avg + (1-self.beta1)*p.grad
        unbias_avg = p.avg / (1 - (self.beta1**(self.i+1)))
        p.sqr_avg = self.beta2*p.sqr_avg + (1-self.beta2)*(p.grad**2)
        unbias_sqr_avg = p.sqr_avg / (1 - (self.beta2**(self.i+1)))
        p -= self.lr * unbias_avg / (unbias_sqr_avg + self.eps).sqrt()

# In[26]
set_seed(42)
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
learn = TrainLearner(model, dls, F.cross_entropy, lr=6e-3, cbs=cbs, opt_func=Adam)
learn.fit(2)

# In[31]
learn = TrainLearner(get_model(), dls, F.cross_entropy, lr=6e-3, cbs=[SingleBatchCB()])
learn.fit(1)

# In[32]
opt = learn.opt

# In[33]
print(opt)

# In[34]
param = next(iter(learn.model.parameters()))
st = opt.state[param]

# In[35]
print(st)

# In[36]
print(len(opt.param_groups))

# In[37]
pg = opt.param_groups[0]

# In[38]
print(list(pg))

# In[39]
sched = lr_scheduler.CosineAnnealingLR(opt, 100)

# In[40]
print(sched.base_lrs)

# In[41]
print(sched.get_last_lr())

# In[42]
def sched_lrs(sched, steps):
    lrs = [sched.get_last_lr()]
    for i in range(steps):
        sched.optimizer.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    print(lrs[::10])  # the notebook plots them

# In[43]
sched_lrs(sched, 110)

# In[45]
class BaseSchedCB(Callback):
    def __init__(self, sched): self.sched = sched
    def before_fit(self, learn): self.schedo = self.sched(learn.opt)
    def _step(self, learn):
        if learn.training: self.schedo.step()

# In[46]
class BatchSchedCB(BaseSchedCB):
    def after_batch(self, learn): self._step(learn)

# In[47]
class HasLearnCB(Callback):
    def before_fit(self, learn): self.learn = learn
    def after_fit(self, learn): self.learn = None

# In[48]
class RecorderCB(Callback):
    def __init__(self, **d): self.d = d
    def before_fit(self, learn):
        self.recs = {k:[] for k in self.d}
        self.pg = learn.opt.param_groups[0]

    def after_batch(self, learn):
        if not learn.training: return
        for k,v in self.d.items():
            self.recs[k].append(v(self))

    def plot(self):
        for k,v in self.recs.items():
            print(k, v)  # the notebook plots them

# In[49]
def _lr(cb): return cb.pg['lr']

# In[50]
print(len(dls.train))

# In[51]
tmax = 2 * len(dls.train)
sched = partial(lr_scheduler.CosineAnnealingLR, T_max=tmax)

# In[52]
set_seed(42)
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
rec = RecorderCB(lr=_lr)
xtra = [BatchSchedCB(sched),rec]
learn = TrainLearner(model, dls, F.cross_entropy, lr=2e-2, cbs=cbs+xtra, opt_func=optim.AdamW)
learn.fit(2)

# In[53]
rec.plot()

# In[54]
class EpochSchedCB(BaseSchedCB):
    def after_epoch(self, learn): self._step(learn)

# In[55]
sched = partial(lr_scheduler.CosineAnnealingLR, T_max=2)
set_seed(42)
xtra = [EpochSchedCB(sched),rec]
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
learn = TrainLearner(model, dls, F.cross_entropy, lr=2e-2, cbs=cbs+xtra, opt_func=optim.AdamW)
learn.fit(2)

# In[56]
rec.plot()

# In[59]
def _beta1(cb): return cb.pg['betas'][0]
rec = RecorderCB(lr=_lr, mom=_beta1)

# In[60]
set_seed(42)
lr,epochs = 6e-2,2
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
tmax = epochs * len(dls.train)
sched = partial(lr_scheduler.OneCycleLR, max_lr=lr, total_steps=tmax)
xtra = [BatchSchedCB(sched), rec]
learn = TrainLearner(model, dls, F.cross_entropy, lr=lr, cbs=cbs+xtra, opt_func=optim.AdamW)
learn.fit(epochs)

# In[61]
rec.plot()
