# %% [markdown]
# # 06 · Intermediates: `retain_grad()` and hooks
#
# Since notebook 02 the diagrams have said `grad None` in the boxes of tensors in the middle of a
# graph, even after `backward()`. Their gradients *are* computed: backward cannot reach the
# leaves without passing through them. It just does not keep them. This notebook shows what
# PyTorch says when you ask for one anyway, the two ways to get at it (`retain_grad()` to keep
# it, hooks to look at it or change it as it flows past), and how looking at those gradients
# finds a bug in a small network.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %%
import textwrap
import warnings

import matplotlib.pyplot as plt
import numpy as np

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## An intermediate's `.grad` is `None`, and PyTorch warns
#
# Take a leaf $x = 2$, an intermediate $h = 3x$ and an output $y = h^2$. The chain rule goes
# through $h$: $dy/dh = 2h = 12$, then $dy/dx = dy/dh \cdot dh/dx = 12 \cdot 3 = 36$.

# %%
x = torch.tensor(2.0, requires_grad=True)
h = x * 3
y = h**2
y.backward()
x.grad

# %% [markdown]
# <details><summary>What will <code>h.grad</code> print? Click to reveal</summary>
#
# `None`, and reading it raises a `UserWarning`. `h` is not a leaf, so backward passed its
# gradient (12) on to `x` and then dropped it.
# </details>
#
# A warning normally goes to the notebook's error stream. To show it here we catch it with
# `warnings.catch_warnings(record=True)` and print its message (PyTorch adds the C++ file it
# came from in brackets; we cut that off so the text is the same on every machine).

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")  # show it even if it was shown before
    print(h.grad)

message = str(caught[0].message).split(" (Triggered")[0]
print(caught[0].category.__name__ + ":")
print(textwrap.fill(message, 96))

# %%
assert len(caught) == 1 and caught[0].category is UserWarning
assert "not a leaf Tensor" in message and ".retain_grad()" in message

# %% [markdown]
# The warning says it all: the `.grad` of a non-leaf "won't be populated", and if you want it,
# call `.retain_grad()`. Reading a leaf's `.grad`, even when it is `None`, never warns:

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    untouched = torch.tensor(1.0, requires_grad=True)
    print(x.grad, untouched.grad)
print(len(caught), "warnings")

# %%
assert caught == []

# %% [markdown]
# Why drop them? Most intermediates are activations of a model: as big as the batch times the
# layer width. A gradient has the shape of its tensor, so keeping one for each activation after
# `backward()` would hold another tensor that size per activation until the next reset, for
# values an optimizer never reads (it updates parameters, which are leaves).
#
# In the diagram, `h` is white, the colour of an intermediate whose `.grad` stays `None`:

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# ## `retain_grad()`: keep it this time
#
# Call `h.retain_grad()` *before* `backward()`. It marks `h` so that the engine, when the
# gradient for `h` passes by, also stores it in `h.grad`. `h.retains_grad` tells whether a
# tensor is marked. The diagram draws a retained intermediate in green.

# %%
x = torch.tensor(2.0, requires_grad=True)
h = x * 3
h.retain_grad()
y = h**2
print(h.retains_grad, h.is_leaf)

# %%
assert h.retains_grad and not h.is_leaf

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# <details><summary>What will <code>h.grad</code> and <code>x.grad</code> print after
# <code>y.backward()</code>? Click to reveal</summary>
#
# `tensor(12.)` and `tensor(36.)`: $dy/dh = 2h$ at $h = 6$, and that 12 times $dh/dx = 3$.
# Retaining changes nothing about the leaves; it only keeps one more gradient.
# </details>

# %%
y.backward()
print(h.grad, x.grad)

# %%
assert h.grad.item() == 2 * h.item()
assert x.grad.item() == h.grad.item() * 3  # the chain rule, link by link

# %% [markdown]
# After backward, both `x` and `h` show a gradient:

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# Step by step, on a fresh copy: `PowBackward0` sends 12 to `h` ("received 12."), and `h.grad`
# is written in the next step, when `MulBackward0`, the node that made `h`, takes that gradient
# in, just before it sends $12 \times 3$ on to `x`. The retained gradient is the total that
# reaches `h` from everything that uses it.

# %% tags=["minigrad-only"]
x = torch.tensor(2.0, requires_grad=True)
h = x * 3
h.retain_grad()
y = h**2
viz.backward_steps(y)

# %% [markdown]
# Two details. On a leaf, `retain_grad()` does nothing: leaves keep their gradient anyway
# (and `retains_grad` stays `False` for them). The second: the output itself can retain too.
#
# <details><summary>With <code>y.retain_grad()</code>, what will <code>y.grad</code> print?
# Click to reveal</summary>
#
# `tensor(1.)`: on the output, `retain_grad()` keeps the gradient backward starts from, and
# backward of a single number starts from $dy/dy = 1$.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
x.retain_grad()
y = (x * 3) ** 2
y.retain_grad()
y.backward()
print(x.retains_grad, y.retains_grad)
print(y.grad)

# %%
assert not x.retains_grad and y.grad.item() == 1.0

# %% [markdown]
# ## Hooks: see the gradient as it passes
#
# `retain_grad()` stores a gradient. Sometimes you only want to *look* at it (print it, record
# its size) or *change* it on its way to the leaves. `t.register_hook(fn)` does that: during
# backward, when the gradient for `t` is ready, PyTorch calls `fn(grad)`. If `fn` returns
# `None`, the gradient flows on unchanged; if it returns a tensor, that tensor replaces the
# gradient for everything further back.
#
# Several hooks on one tensor run in the order they were registered. Here $h = 2x$ at $x = 1$
# and $y = 3h$, so $dy/dh = 3$; the second hook multiplies by 10.
#
# <details><summary>What will this print, and what will <code>x.grad</code> be? Click to
# reveal</summary>
#
# `first sees 3.0`, then `third sees 30.0`, and `x.grad` is `tensor(60.)`: each hook receives
# what the previous one passed on, so the third sees the gradient the second one returned, and
# $x$ gets $30 \times dh/dx = 30 \times 2$.
# </details>

# %%
x = torch.tensor(1.0, requires_grad=True)
h = x * 2
first = h.register_hook(lambda grad: print("first sees", grad.item()))
second = h.register_hook(lambda grad: grad * 10)
third = h.register_hook(lambda grad: print("third sees", grad.item()))
y = h * 3
y.backward(retain_graph=True)  # keep the graph: we run backward on it again below
print("x.grad:", x.grad)

# %%
assert x.grad.item() == 3 * 10 * 2

# %% [markdown]
# `register_hook` returns a handle (PyTorch's `RemovableHandle`); `handle.remove()` takes the
# hook out again. Remove the one that multiplies and run backward once more (`retain_graph=True`
# above allowed a second pass; notebook 08 is about that).
#
# <details><summary>What will <code>x.grad</code> be now? Click to reveal</summary>
#
# `tensor(6.)`: the true $dy/dx = 3 \cdot 2$. (`.grad` was reset first, or it would have
# accumulated.) The two printing hooks are still there, and both now see 3.
# </details>

# %%
second.remove()
x.grad = None
y.backward()
print("x.grad:", x.grad)

# %%
assert x.grad.item() == 3 * 2

# %% [markdown]
# In pictures, on a fresh copy with one hook that multiplies by 10: the step that runs
# `MulBackward0` for $h = 2x$ receives 30, not 3. The graph is the same; only the number
# travelling through it changed.

# %% tags=["minigrad-only"]
x = torch.tensor(1.0, requires_grad=True)
h = x * 2
scale_up = h.register_hook(lambda grad: grad * 10)
y = h * 3
viz.backward_steps(y)

# %% [markdown]
# A hook on a *leaf* runs before the gradient is added into `.grad`, so it changes what gets
# stored: a way to clip or rescale the gradient of one parameter. And hooks run before
# `retain_grad()` stores its copy, so a retained `.grad` is the gradient *after* the hooks.

# %%
w = torch.tensor(1.0, requires_grad=True)
w.register_hook(lambda grad: grad.clamp(-1.0, 1.0))  # clip this parameter's gradient
h = w * 5
h.retain_grad()
h.register_hook(lambda grad: grad * 2)
(h * 4).backward()
print("h.grad:", h.grad, " w.grad:", w.grad)

# %%
assert h.grad.item() == 4 * 2  # the hook's doubled gradient was retained
assert w.grad.item() == 1.0  # 8 * 5 = 40, clipped to 1 before it was stored

# %% [markdown]
# PyTorch has more hooks than these (on `grad_fn` nodes, on `nn.Module`s for whole layers:
# `register_full_backward_hook`); they all work the same way: a function called with gradients
# during backward, which may return replacements.
#
# ## Debugging with intermediate gradients: dead ReLU units
#
# A small network: 64 points in the plane, a hidden layer of 8 ReLU units, one output. Its
# weights come from numpy's fixed random numbers, so the run is the same everywhere. Three of
# its hidden biases are very negative, as a too-large update can leave them.

# %%
rng = np.random.RandomState(0)
points = torch.tensor(rng.uniform(-1, 1, (64, 2)), dtype=torch.float32)
targets = (points[:, 0] * points[:, 1] > 0).float()  # 1 in two opposite quadrants
w1 = torch.tensor(rng.normal(0, 1, (2, 8)), dtype=torch.float32, requires_grad=True)
b1 = torch.tensor([0.5, -4.0, 0.2, 0.1, -3.0, 0.3, -5.0, 0.4], requires_grad=True)
w2 = torch.tensor(rng.normal(0, 1, (8, 1)), dtype=torch.float32, requires_grad=True)

# %% [markdown]
# Say its loss comes down more slowly than it should. Are all hidden units learning? A hook on
# the pre-activations `z` records the gradient each example sends to each unit; nothing is
# stored on the tensors, and the hook is removed afterwards.

# %%
z = points @ w1 + b1
hidden = torch.relu(z)
out = (hidden @ w2).squeeze(1)
loss = ((out - targets) ** 2).mean()

recorded = {}
handle = z.register_hook(lambda grad: recorded.update(z=grad))
loss.backward()
handle.remove()

grad_z = recorded["z"]
reached = (grad_z != 0).sum(dim=0)  # per unit: examples that send it a gradient
print("examples reaching each unit:", reached.tolist())

# %% [markdown]
# <details><summary>Units 1, 4 and 6 get nothing. What will <code>w1.grad</code> hold for
# them? Click to reveal</summary>
#
# Exact zeros, in both rows of their columns. ReLU's derivative is 0 wherever its input is
# negative, and those units' input is negative for every example: no gradient gets through, so
# their incoming weights never change. They are *dead*, and plain gradient descent will never
# bring them back.
# </details>

# %%
dead = [unit for unit, count in enumerate(reached.tolist()) if count == 0]
print("dead units:", dead)
print(w1.grad[:, dead])
print(f"their largest pre-activation: {z[:, dead].max().item():.2f}")

# %%
assert dead == [1, 4, 6]
assert torch.equal(w1.grad[:, dead], torch.zeros(2, 3))
assert (z[:, dead] < 0).all()

# %% [markdown]
# As a picture: how many of the 64 examples send a gradient to each unit. A healthy ReLU unit
# is active on some examples and not others; a bar at zero is a unit that has stopped learning.

# %%
fig, ax = plt.subplots(figsize=(5, 2.8))
ax.bar(range(8), reached.tolist(), color="tab:blue")
for unit in dead:
    ax.text(unit, 1, "dead", color="tab:red", ha="center", va="bottom", rotation=90)
ax.set_xticks(range(8))
ax.set_xlabel("hidden unit")
ax.set_ylabel("examples with grad != 0")
ax.set_title("gradient reaching each ReLU unit")
plt.show()

# %% [markdown]
# The fix belongs to training, not to autograd (a smaller learning rate, a better
# initialisation, or `LeakyReLU`, whose slope is never zero); finding the problem took one hook.
# The graph of this loss, with `z` among its intermediates, is small enough to draw:

# %% tags=["minigrad-only"]
viz.draw(loss)

# %% [markdown]
# ## Summary
#
# - Backward computes every intermediate's gradient, passes it on and drops it: a non-leaf's
#   `.grad` is `None`, and reading it warns (`UserWarning`), pointing to `retain_grad()`.
# - `t.retain_grad()` before `backward()` keeps `t.grad` (`t.retains_grad` is then `True`); on a
#   leaf it does nothing.
# - `t.register_hook(fn)` calls `fn(grad)` when `t`'s gradient is ready: return `None` to look,
#   a tensor to replace it further back. Hooks run in registration order, before `retain_grad()`
#   stores and before a leaf's `.grad` is updated. `handle.remove()` takes one out.
# - Gradients of intermediates are a debugging tool: a unit that receives exactly zero from
#   every example is a dead ReLU.
#
# Exercises: [exercises/ex06_intermediates.ipynb](../exercises/ex06_intermediates.ipynb).
# Next: [07 · In-place operations](07_inplace.ipynb).
