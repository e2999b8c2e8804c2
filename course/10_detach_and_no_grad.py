# %% [markdown]
# # 10 · Stopping gradients: `detach()`, `no_grad()`, `requires_grad_()`
#
# Notebook 09 got more out of a graph. This one keeps things *out* of it. Some values are
# computed from parameters but must count as constants (a target, a statistic for logging);
# some whole computations need no gradient at all (evaluating a model, updating its weights);
# some parameters should stay fixed while others train. Three tools, from the smallest reach to
# the largest: `detach()` cuts one tensor out of the graph, `torch.no_grad()` records nothing in
# a block of code, and `requires_grad_(False)` freezes a leaf.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %% [markdown]
# ## `detach()`: the same values, out of the graph
#
# `t.detach()` returns a tensor with `t`'s values (the same memory) and no history: it does not
# require grad, it is a leaf, and gradients do not flow through it. Use it to treat a value as
# a constant.
#
# Take $x = 2$, $y = 3x$ and $z = x \cdot y = 3x^2$. Through both paths, $dz/dx = 6x = 12$.
# Step by step: the multiplication for `z` sends $y = 6$ straight to `x` and $x = 2$ to `y`;
# `y`'s own multiplication turns that 2 into $2 \times 3 = 6$ for `x`; the two 6's are added
# up before `x.grad` is written:

# %% tags=["minigrad-only"]
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
z = x * y
viz.backward_steps(z)

# %% [markdown]
# Now multiply by `y.detach()` instead.
#
# <details><summary>What will <code>x.grad</code> be? Click to reveal</summary>
#
# `tensor(6.)`. The detached `y` is a constant 6 as far as autograd knows, so only the direct
# path counts: $dz/dx = y = 6$.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
y_const = y.detach()
z = x * y_const
z.backward()
print(y_const, y_const.requires_grad, y_const.is_leaf)
print("x.grad:", x.grad)

# %%
assert not y_const.requires_grad and y_const.is_leaf and y_const.grad_fn is None
assert x.grad.item() == y.item()

# %% [markdown]
# In the picture, `y_const` is a grey constant: the path through `y` is gone.

# %% tags=["minigrad-only"]
viz.draw(z)

# %% [markdown]
# `detach()` shares memory with the original: change one in place and the other changes too
# (and, notebook 08, its version counter moves). For an independent copy, `t.detach().clone()`.
#
# ## `torch.no_grad()`: record nothing
#
# `detach()` cuts one tensor out. `with torch.no_grad():` acts on a whole block of code instead.
# `torch.is_grad_enabled()` tells which mode you are in.
#
# <details><summary>Inside the block, what will <code>doubled.requires_grad</code> print? Click
# to reveal</summary>
#
# `False`, although `x` requires grad. Recording is off in the block: every result inside has
# `requires_grad=False` and no `grad_fn`, whatever its inputs.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    doubled = x * 2
    print(torch.is_grad_enabled(), doubled.requires_grad, doubled.grad_fn)
print(torch.is_grad_enabled(), (x * 2).requires_grad)

# %%
assert not doubled.requires_grad and torch.is_grad_enabled()

# %% [markdown]
# Use it wherever you compute with tensors that require grad but want no gradient: evaluating a
# model (no graph means less memory and time), and updating parameters in place (notebook 08).
# It also works as a decorator, and `torch.enable_grad()` switches recording back on inside it:

# %%
@torch.no_grad()
def evaluate(t):
    return t * 2


with torch.no_grad(), torch.enable_grad():  # the inner one wins
    recorded = x * 2
print(evaluate(x).requires_grad, recorded.requires_grad)

# %%
assert not evaluate(x).requires_grad and recorded.requires_grad

# %% [markdown]
# ## `requires_grad_()`: switch a leaf on or off
#
# The other direction: `t.requires_grad_()` switches tracking on for a leaf in place (notebook
# 01), and `requires_grad_(False)` switches it off. Off is how you *freeze* a parameter: no
# gradient is computed for it, and its `.grad` stays `None`.

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
w.requires_grad_(False)  # frozen
loss = (w * 3 + b).sum()
loss.backward()
print(w.grad, b.grad)

# %%
assert w.grad is None and b.grad.item() == 2.0

# %% [markdown]
# A result that needs no gradient at all cannot start a backward pass:

# %%
try:
    (w * 3).sum().backward()
except RuntimeError as error:
    print(error)

# %% [markdown]
# ## Summary
#
# - `detach()` gives the same values as a constant: no history, no gradient through it, and the
#   same memory (add `clone()` for a separate copy).
# - `torch.no_grad()` records nothing in a block (or a decorated function); `torch.enable_grad()`
#   switches recording back on inside it.
# - `requires_grad_(False)` freezes a leaf: its `.grad` stays `None`, and a result that needs no
#   gradient at all cannot start a backward pass.
#
# Exercises: [exercises/ex10_detach_and_no_grad.ipynb](../exercises/ex10_detach_and_no_grad.ipynb).
# Next: [11 · Inside the engine](11_inside_the_engine.ipynb).
