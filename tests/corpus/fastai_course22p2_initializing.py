# Source: fastai/course22p2 nbs/11_initializing.ipynb at df93232 (fast.ai "Practical Deep
#   Learning for Coders" part 2, 2022: activations exploding or vanishing through 50 matrix
#   products, variance and covariance by hand, Kaiming/He initialisation with
#   `init.kaiming_normal_` applied by `model.apply`, normalising inputs in a callback,
#   GeneralRelu, LSUV initialisation by a forward hook under no_grad, LayerNorm and BatchNorm
#   written by hand (buffers updated with `lerp_`), nn.BatchNorm2d), with the miniai code it
#   imports: the Learner, MomentumLearner (`p.grad *= self.mom` under no_grad in place of
#   zero_grad), LRFinderCB with ExponentialLR (miniai/learner.py, 09_learner), and Hook, Hooks,
#   HooksCallback and ActivationStats (miniai/activations.py, 10_activations).
# Edits: the notebook's code cells in order; a cell's last expression, which the notebook shows,
#   is printed. In place of Fashion-MNIST (a download), 64 training and 32 validation images of
#   seeded uniform noise made with numpy (1x28x28 in [0, 1), as TF.to_tensor gives), labelled by
#   the argmax of a fixed random projection of each image; batches of 16; each `fit` runs for
#   1 epoch rather than 3 (or 2). MetricsCB computes torcheval's Mean and MulticlassAccuracy by
#   hand (torcheval is not installed); ProgressCB (fastprogress) and DeviceCB (CPU only) are
#   left out, so MetricsCB prints its dict. Where the notebook plots, it prints: lr_find's
#   number of steps and last learning rate and loss, the activation statistics' first and last
#   means and stds and get_min's shares, the histograms' shapes. The IPython clean-up cells and
#   nbdev's export are left out. fastcore's `store_attr`, `L`, `noop`, `risinstance` and
#   `filter_ex` are replaced by their plain equivalents for these uses.
import math,random,torch,numpy as np
from collections.abc import Mapping
from copy import copy
from functools import partial
from operator import attrgetter
import torch.nn.functional as F
from torch import tensor,nn,optim
from torch.nn import init
from torch.optim.lr_scheduler import ExponentialLR


def L(o):
    """fastcore's L(o) for these uses: a list of o's items, or of o alone, or empty for None."""
    return [] if o is None else list(o) if isinstance(o, (list, tuple)) else [o]
def noop(x=None, *args, **kwargs): return x
def risinstance(types): return lambda o: isinstance(o, types)


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
        cbs = L(cbs)
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
        cbs = L(cbs)
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



class MomentumLearner(TrainLearner):
    def __init__(self, model, dls, loss_func, lr=None, cbs=None, opt_func=optim.SGD, mom=0.85):
        self.mom = mom
        super().__init__(model, dls, loss_func, lr, cbs, opt_func)

    def zero_grad(self):
        with torch.no_grad():
            for p in self.model.parameters(): p.grad *= self.mom


class LRFinderCB(Callback):
    def __init__(self, gamma=1.3, max_mult=3): self.gamma,self.max_mult = gamma,max_mult

    def before_fit(self, learn):
        self.sched = ExponentialLR(learn.opt, self.gamma)
        self.lrs,self.losses = [],[]
        self.min = math.inf

    def after_batch(self, learn):
        if not learn.training: raise CancelEpochException()
        self.lrs.append(learn.opt.param_groups[0]['lr'])
        loss = to_cpu(learn.loss)
        self.losses.append(loss)
        if loss < self.min: self.min = loss
        if math.isnan(loss) or (loss > self.min*self.max_mult):
            raise CancelFitException()
        self.sched.step()

    def cleanup_fit(self, learn):
        # the notebook plots losses against learning rates on a log scale
        print(len(self.lrs), self.lrs[-1], self.losses[-1], self.min)


def lr_find(self, gamma=1.3, max_mult=3, start_lr=1e-5, max_epochs=10):
    self.fit(max_epochs, lr=start_lr, cbs=LRFinderCB(gamma=gamma, max_mult=max_mult))
Learner.lr_find = lr_find


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


def append_stats(hook, mod, inp, outp):
    if not hasattr(hook,'stats'): hook.stats = ([],[],[])
    acts = to_cpu(outp)
    hook.stats[0].append(acts.mean())
    hook.stats[1].append(acts.std())
    hook.stats[2].append(acts.abs().histc(40,0,10))


def get_hist(h): return torch.stack(h.stats[2]).t().float().log1p()


def get_min(h):
    h1 = torch.stack(h.stats[2]).t().float()
    return h1[0]/h1.sum(0)


class ActivationStats(HooksCallback):
    def __init__(self, mod_filter=noop): super().__init__(append_stats, mod_filter)

    def color_dim(self):  # drawn as images in the notebook
        for h in self: print(get_hist(h).shape)

    def dead_chart(self):  # plotted in the notebook
        for h in self: print(get_min(h))

    def plot_stats(self):  # plotted in the notebook
        for h in self:
            for i in 0,1: print(torch.stack(h.stats[i][:2] + h.stats[i][-2:]))


def conv(ni, nf, ks=3, stride=2, act=True):
    res = nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks//2)
    if act: res = nn.Sequential(res, nn.ReLU())
    return res


# In[3]
torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)
torch.manual_seed(1)
set_seed(42)

# In[4]
rng = np.random.default_rng(0)
proj = rng.standard_normal((784, 10)).astype(np.float32)
def images(n):
    x = rng.random((n, 784), dtype=np.float32)
    return tensor(x).view(-1, 1, 28, 28), tensor((x @ proj).argmax(1))
bs = 16
tds = list(zip(*images(64))), list(zip(*images(32)))
def get_dls(tds, bs):
    return DataLoaders(torch.utils.data.DataLoader(tds[0], bs, shuffle=True),
                       torch.utils.data.DataLoader(tds[1], bs*2))
dls = get_dls(tds, bs)
dt = dls.train
xb,yb = next(iter(dt))
print(xb.shape,yb[:10])

# In[5]
def get_model():
    return nn.Sequential(conv(1 ,8), conv(8 ,16), conv(16,32), conv(32,64),
                         conv(64,10, act=False), nn.Flatten())

# In[6]
MomentumLearner(get_model(), dls, F.cross_entropy).lr_find(gamma=1.1, start_lr=1e-2)

# In[7]
metrics = MetricsCB(accuracy=MulticlassAccuracy())
astats = ActivationStats(risinstance(nn.ReLU))
cbs = [metrics, astats]
learn = MomentumLearner(get_model(), dls, F.cross_entropy, lr=0.2, cbs=cbs)

# In[8]
learn.fit(1)

# In[9]
astats.color_dim()

# In[10]
astats.plot_stats()

# In[15]
x = torch.randn(200, 100)
for i in range(50): x = x @ torch.randn(100,100)
print(x[0:5,0:5])

# In[17]
x = torch.randn(200, 100)
for i in range(50): x = x @ (torch.randn(100,100) * 0.01)
print(x[0:5,0:5])

# In[19]
x = torch.randn(200, 100)
for i in range(50): x = x @ (torch.randn(100,100) * 0.1)
print(x[0:5,0:5])

# In[23]
t = torch.tensor([1.,2.,4.,18])

# In[24]
m = t.mean(); print(m)

# In[25]
print((t-m).mean())

# In[27]
print((t-m).pow(2).mean())

# In[28]
print((t-m).abs().mean())

# In[30]
print((t-m).pow(2).mean().sqrt())

# In[32]
print(((t-m).pow(2).mean(), (t*t).mean() - (m*m)))

# In[37]
print(t)

# In[38]
u = t*2
u *= torch.randn_like(t)/10+0.95

# In[39]
prod = (t-t.mean())*(u-u.mean()); print(prod)

# In[40]
print(prod.mean())

# In[41]
v = torch.randn_like(t)

# In[42]
print(((t-t.mean())*(v-v.mean())).mean())

# In[44]
cov = (t*v).mean() - t.mean()*v.mean(); print(cov)

# In[46]
print(cov / (t.std() * v.std()))

# In[48]
print(x.std())

# In[51]
x = torch.randn(100)
print((x.mean(), x.std()))

# In[53]
mean,sqr = 0.,0.
for i in range(100):
    x = torch.randn(100)
    a = torch.randn(512, 100)
    y = a @ x
    mean += y.mean().item()
    sqr  += y.pow(2).mean().item()
print((mean/100,sqr/100))

# In[55]
mean,sqr = 0.,0.
for i in range(10000):
    x = torch.randn(1)
    a = torch.randn(1)
    y = a*x
    mean += y.item()
    sqr  += y.pow(2).item()
print((mean/10000,sqr/10000))

# In[60]
x = torch.randn(200, 100)
y = torch.randn(200)

# In[61]
from math import sqrt

# In[62]
w1 = torch.randn(100,50) / sqrt(100)
b1 = torch.zeros(50)
w2 = torch.randn(50,1) / sqrt(50)
b2 = torch.zeros(1)

# In[63]
def lin(x, w, b): return x @ w + b

# In[64]
l1 = lin(x, w1, b1)
print((l1.mean(),l1.std()))

# In[65]
def relu(x): return x.clamp_min(0.)

# In[66]
l2 = relu(l1)
print((l2.mean(),l2.std()))

# In[67]
x = torch.randn(200, 100)
for i in range(50): x = relu(x @ (torch.randn(100,100) * 0.1))
print(x[0:5,0:5])

# In[69]
x = torch.randn(200, 100)
for i in range(50): x = relu(x @ (torch.randn(100,100) * sqrt(2/100)))
print(x[0:5,0:5])

# In[71]
model = get_model()
model.apply(lambda m: print(type(m).__name__));

# In[72]
def init_weights(m):
    if isinstance(m, (nn.Conv1d,nn.Conv2d,nn.Conv3d)): init.kaiming_normal_(m.weight)

# In[73]
model.apply(init_weights);

# In[74]
MomentumLearner(model, dls, F.cross_entropy).lr_find()

# In[75]
set_seed(42)
learn = MomentumLearner(get_model().apply(init_weights), dls, F.cross_entropy, lr=0.2, cbs=cbs)

# In[76]
learn.fit(1)

# In[77]
astats.color_dim()

# In[78]
astats.plot_stats()

# In[80]
xmean,xstd = xb.mean(),xb.std()
print((xmean,xstd))

# In[81]
class BatchTransformCB(Callback):
    def __init__(self, tfm, on_train=True, on_val=True): self.tfm,self.on_train,self.on_val = tfm,on_train,on_val

    def before_batch(self, learn):
        if (self.on_train and learn.training) or (self.on_val and not learn.training):
            learn.batch = self.tfm(learn.batch)

# In[82]
def _norm(b): return (b[0]-xmean)/xstd,b[1]
norm = BatchTransformCB(_norm)

# In[83]
set_seed(42)
learn = MomentumLearner(get_model().apply(init_weights), dls, F.cross_entropy, lr=0.2, cbs=cbs+[norm])
learn.fit(1)

# In[84]
astats.color_dim()

# In[85]
astats.plot_stats()

# In[86]
def transformi(b): return [((x-xmean)/xstd, y) for x, y in b]
tds = transformi(tds[0]), transformi(tds[1])
dls = get_dls(tds, bs)
xb,yb = next(iter(dls.train))

# In[87]
print((xb.mean(),xb.std()))

# In[89]
class GeneralRelu(nn.Module):
    def __init__(self, leak=None, sub=None, maxv=None):
        super().__init__()
        self.leak,self.sub,self.maxv = leak,sub,maxv

    def forward(self, x):
        x = F.leaky_relu(x,self.leak) if self.leak is not None else F.relu(x)
        if self.sub is not None: x -= self.sub
        if self.maxv is not None: x.clamp_max_(self.maxv)
        return x

# In[90]
def plot_func(f, start=-5., end=5., steps=100):
    x = torch.linspace(start, end, steps)
    print(f(x)[::11])  # the notebook plots f(x) against x

# In[91]
plot_func(GeneralRelu(leak=0.1, sub=0.4))

# In[92]
def conv(ni, nf, ks=3, stride=2, act=nn.ReLU):
    res = nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks//2)
    if act: res = nn.Sequential(res, act())
    return res

# In[93]
def get_model(act=nn.ReLU, nfs=None):
    if nfs is None: nfs = [1,8,16,32,64]
    layers = [conv(nfs[i], nfs[i+1], act=act) for i in range(len(nfs)-1)]
    return nn.Sequential(*layers, conv(nfs[-1],10, act=None), nn.Flatten())

# In[94]
def init_weights(m, leaky=0.):
    if isinstance(m, (nn.Conv1d,nn.Conv2d,nn.Conv3d)): init.kaiming_normal_(m.weight, a=leaky)

# In[95]
act_gr = partial(GeneralRelu, leak=0.1, sub=0.4)
astats = ActivationStats(risinstance(GeneralRelu))
cbs = [metrics, astats]
iw = partial(init_weights, leaky=0.1)

# In[96]
model = get_model(act_gr).apply(iw)

# In[97]
set_seed(42)
learn = MomentumLearner(model, dls, F.cross_entropy, lr=0.2, cbs=cbs)
learn.fit(1)

# In[98]
astats.color_dim()

# In[99]
astats.plot_stats()

# In[100]
astats.dead_chart()

# In[103]
def _lsuv_stats(hook, mod, inp, outp):
    acts = to_cpu(outp)
    hook.mean = acts.mean()
    hook.std = acts.std()

def lsuv_init(model, m, m_in, xb):
    h = Hook(m, _lsuv_stats)
    with torch.no_grad():
        while model(xb) is not None and (abs(h.std-1)>1e-3 or abs(h.mean)>1e-3):
            m_in.bias -= h.mean
            m_in.weight.data /= h.std
    h.remove()

# In[104]
model = get_model(act_gr)
relus = [o for o in model.modules() if isinstance(o, GeneralRelu)]
convs = [o for o in model.modules() if isinstance(o, nn.Conv2d)]

# In[105]
for ms in zip(relus,convs): print(ms)

# In[106]
for ms in zip(relus,convs): lsuv_init(model, *ms, xb)

# In[107]
set_seed(42)
learn = MomentumLearner(model, dls, F.cross_entropy, lr=0.2, cbs=cbs)
learn.fit(1)

# In[108]
astats.plot_stats()

# In[113]
class LayerNorm(nn.Module):
    def __init__(self, dummy, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.mult = nn.Parameter(tensor(1.))
        self.add  = nn.Parameter(tensor(0.))

    def forward(self, x):
        m = x.mean((1,2,3), keepdim=True)
        v = x.var ((1,2,3), keepdim=True)
        x = (x-m) / ((v+self.eps).sqrt())
        return x*self.mult + self.add

# In[114]
def conv(ni, nf, ks=3, stride=2, act=nn.ReLU, norm=None, bias=None):
    if bias is None: bias = not isinstance(norm, (nn.BatchNorm1d,nn.BatchNorm2d,nn.BatchNorm3d))
    layers = [nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks//2, bias=bias)]
    if norm: layers.append(norm(nf))
    if act: layers.append(act())
    return nn.Sequential(*layers)

# In[115]
def get_model(act=nn.ReLU, nfs=None, norm=None):
    if nfs is None: nfs = [1,8,16,32,64]
    layers = [conv(nfs[i], nfs[i+1], act=act, norm=norm) for i in range(len(nfs)-1)]
    return nn.Sequential(*layers, conv(nfs[-1],10, act=None, norm=False, bias=True),
                         nn.Flatten())

# In[116]
set_seed(42)
model = get_model(act_gr, norm=LayerNorm).apply(iw)
learn = MomentumLearner(model, dls, F.cross_entropy, lr=0.2, cbs=cbs)
learn.fit(1)

# In[118]
class BatchNorm(nn.Module):
    def __init__(self, nf, mom=0.1, eps=1e-5):
        super().__init__()
        # NB: pytorch bn mom is opposite of what you'd expect
        self.mom,self.eps = mom,eps
        self.mults = nn.Parameter(torch.ones (nf,1,1))
        self.adds  = nn.Parameter(torch.zeros(nf,1,1))
        self.register_buffer('vars',  torch.ones(1,nf,1,1))
        self.register_buffer('means', torch.zeros(1,nf,1,1))

    def update_stats(self, x):
        m = x.mean((0,2,3), keepdim=True)
        v = x.var ((0,2,3), keepdim=True)
        self.means.lerp_(m, self.mom)
        self.vars.lerp_ (v, self.mom)
        return m,v

    def forward(self, x):
        if self.training:
            with torch.no_grad(): m,v = self.update_stats(x)
        else: m,v = self.means,self.vars
        x = (x-m) / (v+self.eps).sqrt()
        return x*self.mults + self.adds

# In[119]
model = get_model(act_gr, norm=BatchNorm).apply(iw)
set_seed(42)
learn = MomentumLearner(model, dls, F.cross_entropy, lr=0.4, cbs=cbs)
learn.fit(1)

# In[122]
dls = get_dls(tds, 8)  # the notebook's 256

# In[123]
set_seed(42)
model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
learn = MomentumLearner(model, dls, F.cross_entropy, lr=0.2, cbs=cbs)
learn.fit(1)

# In[124]
learn = MomentumLearner(model, dls, F.cross_entropy, lr=0.05, cbs=cbs)
learn.fit(1)
