# %% [markdown]
# # 13 · An engine of your own
#
# Since notebook 01 minigrad has recorded your operations, and `backward()` has walked them.
# Here you write that engine yourself, on numpy, in five short steps, each checked against
# minigrad: the gradient of a broadcast input, recording an operation, four operations'
# gradients, the backward pass, an optimizer. Then a small network learns with your engine,
# and with minigrad, from the same lines of code.

# %%
import minigrad as torch

# %%
import numpy as np

# %% tags=["minigrad-only"]
from minigrad_course.checks import engine_from_scratch as check

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## The tensor
#
# Ours is a numpy array with four more fields. `requires_grad` and `grad` are PyTorch's (our
# `.grad` is a numpy array, PyTorch's a tensor). A result also keeps `inputs`, the tensors it
# was computed from, and `grad_fn`: a function that takes the gradient of the result and
# returns a tuple with one gradient per input, one step of the chain rule, as calling a
# PyTorch node did in notebook 11. A tensor without `grad_fn` is a leaf.

# %%
class Tensor:
    """A numpy array that can remember the operation that made it."""

    def __init__(self, data, requires_grad=False):
        self.data = np.array(data, dtype=np.float32)  # a copy, in PyTorch's default dtype
        self.requires_grad = requires_grad
        self.grad = None  # after backward(): a numpy array of data's shape
        self.grad_fn = None  # for a result: its gradient -> a tuple, one per input
        self.inputs = ()  # for a result: the tensors it was computed from

    @property
    def shape(self):
        return self.data.shape

    @property
    def is_leaf(self):
        return self.grad_fn is None

    def item(self):
        return self.data.item()

    def __repr__(self):
        return f"Tensor({self.data}, requires_grad={self.requires_grad})"

    def __sub__(self, other):  # from the operations you write: a - b = a + b * (-1)
        return self + as_tensor(other) * -1.0

    def __rsub__(self, other):
        return as_tensor(other) + self * -1.0


def as_tensor(value):
    """A number as a Tensor that does not require grad; a Tensor as it is."""
    return value if isinstance(value, Tensor) else Tensor(value)


# %% [markdown]
# ## Step 1: the gradient of a broadcast input
#
# numpy *broadcasts*: adding `b` of shape `(3,)` to `x` of shape `(4, 3)` adds `b` to each of
# the 4 rows. Each element of `b` is used four times, so its gradient is the sum of four: the
# result's gradient, of shape `(4, 3)`, summed over the rows. In general: sum over the leading
# axes broadcasting added, then over every axis where the input's size is 1, keeping it
# (`keepdims=True`). PyTorch does this for every operation that broadcasts, and so will yours.
#
# Write `unbroadcast(grad, shape)`, which returns `grad` summed down to `shape`, in the cell
# below in place of its `raise NotImplementedError()`; then run it and the check after it.

# %% tags=["build"]
def unbroadcast(grad, shape):
    """Sum `grad` down to `shape`, undoing numpy's broadcasting."""
    ### BEGIN SOLUTION
    while grad.ndim > len(shape):  # axes broadcasting added in front
        grad = grad.sum(axis=0)
    for axis, size in enumerate(shape):  # axes of size 1 that were stretched
        if size == 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad
    ### END SOLUTION


# %% tags=["minigrad-only"]
check.unbroadcasting(unbroadcast)

# %% [markdown]
# ## Step 2: recording an operation
#
# An operation computes its result's data, then *records* how to send a gradient back, but
# only when some input requires grad: as in PyTorch, a result of constants is a leaf, and no
# graph is kept for it.
#
# Write `record(out, inputs, grad_fn)`: when any of `inputs` requires grad, set
# `out.requires_grad` to `True` and keep `grad_fn` and `inputs` on `out`; return `out` either
# way. Below it, `add` uses it, and becomes `Tensor`'s `+`.

# %% tags=["build"]
def record(out, inputs, grad_fn):
    """Make `out` the result of `inputs`, when any of them requires grad."""
    ### BEGIN SOLUTION
    if any(t.requires_grad for t in inputs):
        out.requires_grad = True
        out.grad_fn = grad_fn
        out.inputs = inputs
    return out
    ### END SOLUTION


def add(a, b):
    a, b = as_tensor(a), as_tensor(b)

    def grad_fn(grad):  # d(a + b) = da + db: each input gets the gradient, unbroadcast
        return unbroadcast(grad, a.shape), unbroadcast(grad, b.shape)

    return record(Tensor(a.data + b.data), (a, b), grad_fn)


Tensor.__add__ = Tensor.__radd__ = add

# %% tags=["minigrad-only"]
check.recording(Tensor, record)

# %% [markdown]
# Calling a result's `grad_fn` is one step of the chain rule:

# %%
a = Tensor([1.0, 2.0], requires_grad=True)
c = Tensor(10.0)
s = add(a, c)  # what a + c calls
print(s, s.is_leaf)
print(*s.grad_fn(np.array([1.0, 1.0])))  # c's gradient: two summed into one
print(add(c, c))

# %% [markdown]
# ## Step 3: four more operations
#
# Each follows `add`: compute the data, and in `grad_fn` apply the operation's rule, then
# `unbroadcast` where inputs may broadcast:
#
# - `mul(a, b)`: `a` gets `grad * b.data`, and `b` gets `grad * a.data`;
# - `matmul(a, b)`, for 2-D `a` and `b`: `a` gets `grad` and `b.data.T` multiplied with `@`,
#   `b` gets `a.data.T` and `grad`; each gradient has its input's shape, and that tells you
#   which side of `@` each goes on;
# - `relu(a)`: the gradient where `a.data > 0`, and 0 elsewhere, at 0 too (PyTorch's choice);
# - `total(a)`, the sum of all elements (named so as not to hide Python's `sum`): every
#   element gets the gradient: the scalar `grad`, spread to an array of `a`'s shape.
#
# `grad_fn` returns a tuple even for one input: `(g,)`. The last lines make them `Tensor`'s
# `*`, `@`, `.relu()` and `.sum()`.

# %% tags=["build"]
def mul(a, b):
    a, b = as_tensor(a), as_tensor(b)
    ### BEGIN SOLUTION
    def grad_fn(grad):
        return unbroadcast(grad * b.data, a.shape), unbroadcast(grad * a.data, b.shape)

    return record(Tensor(a.data * b.data), (a, b), grad_fn)
    ### END SOLUTION


def matmul(a, b):
    ### BEGIN SOLUTION
    def grad_fn(grad):
        return grad @ b.data.T, a.data.T @ grad

    return record(Tensor(a.data @ b.data), (a, b), grad_fn)
    ### END SOLUTION


def relu(a):
    ### BEGIN SOLUTION
    def grad_fn(grad):
        return (grad * (a.data > 0),)

    return record(Tensor(np.maximum(a.data, 0)), (a,), grad_fn)
    ### END SOLUTION


def total(a):
    ### BEGIN SOLUTION
    def grad_fn(grad):
        return (grad * np.ones_like(a.data),)

    return record(Tensor(a.data.sum()), (a,), grad_fn)
    ### END SOLUTION


Tensor.__mul__ = Tensor.__rmul__ = mul
Tensor.__matmul__ = matmul
Tensor.relu = relu
Tensor.sum = total

# %% tags=["minigrad-only"]
check.operations(Tensor, mul, matmul, relu, total)

# %% [markdown]
# ## Step 4: the backward pass
#
# Notebook 11's pass, on your tensors. Count, for every tensor that requires grad and can be
# reached from the root through `inputs`, how many gradients it will receive. Then start from
# the root with a gradient of ones, and run each `grad_fn` once, when all of its gradients
# are in, with their sum. A leaf adds that sum into `.grad` (a copy of it the first time); an
# intermediate result keeps nothing, and a tensor that does not require grad gets nothing,
# as in PyTorch. Walk with lists used as stacks, not recursion: a graph can be deeper than
# Python's recursion limit. The last line makes it `Tensor`'s `.backward()`.

# %% tags=["build"]
def backward(root):
    """root.backward() for a scalar root: fill the .grad of the leaves it depends on."""
    if not root.requires_grad:
        raise RuntimeError("element 0 of tensors does not require grad and does not have a "
                           "grad_fn")
    if root.data.size != 1:
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    ### BEGIN SOLUTION
    waiting = {root: 0}  # tensor -> how many gradients it will receive
    stack = [root]
    while stack:
        for t in stack.pop().inputs:
            if t.requires_grad:
                if t not in waiting:
                    waiting[t] = 0
                    stack.append(t)
                waiting[t] += 1

    buffers = {root: np.ones_like(root.data)}  # tensor -> sum of the gradients it received
    ready = [root]
    while ready:
        t = ready.pop()
        grad = buffers.pop(t)
        if t.is_leaf:
            t.grad = grad.copy() if t.grad is None else t.grad + grad
            continue
        for parent, parent_grad in zip(t.inputs, t.grad_fn(grad)):
            if not parent.requires_grad:
                continue
            buffers[parent] = buffers[parent] + parent_grad if parent in buffers else parent_grad
            waiting[parent] -= 1
            if waiting[parent] == 0:
                ready.append(parent)
    ### END SOLUTION


Tensor.backward = backward

# %% tags=["minigrad-only"]
check.backward_pass(Tensor, backward)

# %% [markdown]
# A layer on your engine: two rows of inputs `x`, a weight `w` and a bias `b`, added to both
# rows:
#
# ```python
# x = Tensor([[1.0, -2.0], [3.0, 4.0]])
# w = Tensor([[0.5], [-1.0]], requires_grad=True)
# b = Tensor(0.5, requires_grad=True)
# loss = (x @ w + b).relu().sum()
# ```
#
# <details><summary>What will <code>w.grad</code>, <code>b.grad</code> and <code>x.grad</code>
# be after the backward pass? Click to reveal</summary>
#
# `x @ w + b` is $(3, -2)$, and `relu` passes the gradient of the first row only: `w.grad` is
# that row of `x`, $(1, -2)$, and `b.grad` is 1, the sum over the rows it was broadcast to, of
# which one passed. `x.grad` stays `None`: `x` does not require grad.
# </details>

# %%
x = Tensor([[1.0, -2.0], [3.0, 4.0]])
w = Tensor([[0.5], [-1.0]], requires_grad=True)
b = Tensor(0.5, requires_grad=True)
loss = (x @ w + b).relu().sum()
backward(loss)  # what loss.backward() calls
print("w.grad:", w.grad.tolist())
print("b.grad:", b.grad)
print("x.grad:", x.grad)

# %%
assert w.grad.tolist() == [[1.0], [-2.0]] and b.grad == 1.0 and x.grad is None

# %% [markdown]
# ## Step 5: an optimizer
#
# A training loop calls two methods of `torch.optim.SGD(params, lr)`: `zero_grad()`, which
# sets each parameter's `.grad` to `None` (PyTorch's default, notebook 04), and `step()`, which
# moves each parameter that has a gradient by `-lr` times it. Write ours.

# %% tags=["build"]
class SGD:
    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def zero_grad(self):
        ### BEGIN SOLUTION
        for p in self.params:
            p.grad = None
        ### END SOLUTION

    def step(self):
        ### BEGIN SOLUTION
        for p in self.params:
            if p.grad is not None:
                p.data -= self.lr * p.grad
        ### END SOLUTION


# %% tags=["minigrad-only"]
check.optimizer(Tensor, SGD)

# %% [markdown]
# ## A network learns
#
# 48 points on two rings, the inner ones labelled −1 and the outer ones +1, and a network
# with one hidden layer of 8 ReLU units that learns to tell them apart, from a squared-error
# loss. `train` takes the function that makes tensors and the optimizer's class, so that the
# same lines run on your engine and on minigrad, from the same starting weights:

# %%
angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
rings = [radius * np.stack([np.cos(angles + radius), np.sin(angles + radius)], axis=1)
         for radius in (0.5, 1.0)]
points = np.concatenate(rings).astype(np.float32)
labels = np.repeat([-1.0, 1.0], 24).reshape(48, 1).astype(np.float32)
generator = np.random.default_rng(0)
start = [generator.normal(0, 1, (2, 8)), np.zeros(8),
         generator.normal(0, 0.3, (8, 1)), np.zeros(1)]
start = [weights.astype(np.float32) for weights in start]


def train(tensor, SGD, steps=300):
    inputs, targets = tensor(points), tensor(labels)
    params = [tensor(weights, requires_grad=True) for weights in start]
    w1, b1, w2, b2 = params
    optimizer = SGD(params, lr=0.1)
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        out = (inputs @ w1 + b1).relu() @ w2 + b2
        loss = ((out - targets) * (out - targets)).sum() * (1 / len(points))
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


# %%
yours = train(Tensor, SGD)
print("yours:", [round(loss, 4) for loss in yours[::50]])

# %%
torchs = train(torch.tensor, torch.optim.SGD)
print("torch:", [round(loss, 4) for loss in torchs[::50]])

# %%
largest = max(abs(mine - theirs) for mine, theirs in zip(yours, torchs))
print("the same losses, to 1e-5:", largest < 1e-5)

# %%
assert largest < 1e-5

# %% [markdown]
# ## What the full engine adds
#
# Your engine computes the same gradients in about a hundred lines. minigrad, like PyTorch,
# adds what this course has met one notebook at a time: non-scalar outputs (05), `retain_grad()`
# (06), hooks (07), freeing the graph after `backward()` (09), `no_grad()` and `detach()` (10),
# your own `Function`s (12). Three of them at once:

# %%
v = torch.tensor([1.0, 2.0], requires_grad=True)
h = v * v
h.retain_grad()  # 06: keep an intermediate's gradient
h.register_hook(lambda grad: print("the hook sees", grad))  # 07: look at it as it passes
y = (h * h).sum()
y.backward()
print("h.grad:", h.grad)
try:
    y.backward()  # 09: the graph was freed; yours would add the gradients again
except RuntimeError as error:
    print(error)

# %% [markdown]
# One more program, on your engine first: a weight changed in place after the forward pass
# used it.

# %%
w = Tensor([1.0, 2.0], requires_grad=True)
y = (w * w).sum()
w.data *= 10
backward(y)

# %% [markdown]
# <details><summary>What will <code>w.grad</code> hold, on your engine? And what will
# minigrad do with the same program? Click to reveal</summary>
#
# Yours: `[20. 40.]`. Its `grad_fn` reads `w.data` when it runs, after the change: that is
# $2w$ at a point the forward pass never visited. minigrad keeps a *version counter* on every
# tensor (notebook 08): `mul_` raised `w`'s, `MulBackward0` saved the old number with `w`,
# and `backward()` refuses with PyTorch's error rather than give a wrong gradient.
# </details>

# %%
print("yours:", w.grad)

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * w).sum()
with torch.no_grad():
    w.mul_(10)
try:
    y.backward()
except RuntimeError as error:
    print("torch:", error)

# %% [markdown]
# ## Summary
#
# - A tensor that records its `inputs` and a `grad_fn` is a node of the graph; recording
#   happens only when an input requires grad.
# - Each operation's `grad_fn` is one step of the chain rule; an input that was broadcast gets
#   its gradient summed back to its shape.
# - `backward()` counts the gradients each tensor will receive, runs each `grad_fn` once with
#   their sum, and adds into the `.grad` of leaves only; `zero_grad()` and `step()` are all an
#   optimizer needs from it.
# - The full engine adds the rest, and errors such as the version counter's.
#
# Exercises: [exercises/ex13_engine_from_scratch.ipynb](../exercises/ex13_engine_from_scratch.ipynb).
# Next: [14 · Capstone](14_capstone.ipynb), a classifier trained with `torch.nn` and
# `torch.optim`.
