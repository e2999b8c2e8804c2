# %% [markdown]
# # 06 · An intermediate's `.grad`: `None`, the warning, and `retain_grad()`
#
# Since notebook 02 the diagrams have said `grad None` in the boxes of tensors in the middle of a
# graph, even after `backward()`. Their gradients *are* computed: backward cannot reach the
# leaves without passing through them. It just does not keep them. This notebook shows what
# PyTorch says when you read one anyway, why it drops them, and how to ask it to keep one:
# `retain_grad()`, with the two attributes that tell you what a tensor will keep, `is_leaf` and
# `retains_grad`.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %%
import textwrap
import warnings

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
# ## Summary
#
# - Backward computes every intermediate's gradient, passes it on and drops it: a non-leaf's
#   `.grad` is `None`, and reading it warns (`UserWarning`), pointing to `retain_grad()`.
#   Reading a leaf's `.grad` never warns, even when it is `None`.
# - Intermediates are dropped to save memory: most are activations, as big as the batch, and
#   the optimizer only reads the gradients of parameters, which are leaves.
# - `t.retain_grad()` before `backward()` keeps `t.grad`: the total of everything that reached
#   `t`. `t.retains_grad` is then `True`. On a leaf it does nothing (`retains_grad` stays
#   `False`: a leaf keeps its gradient anyway); on the output it keeps the starting 1.
#
# Exercises: [exercises/ex06_retain_grad.ipynb](../exercises/ex06_retain_grad.ipynb).
# Next: [07 · Hooks](07_hooks.ipynb), which look at a gradient as it passes, or change it.
