# %% [markdown]
# # 06 · Gradients of intermediates: `retain_grad()`
#
# On its way to the leaves, backward passes through every tensor in the middle of the graph,
# and the chain rule computes a gradient for each. This notebook reads one, asks PyTorch to keep
# it with `retain_grad()` (with the two attributes that tell you what a tensor will keep,
# `is_leaf` and `retains_grad`), and then you use it to follow a gradient along a chain.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# A warning normally goes to the notebook's error stream. `show(read)` prints what `read()`
# returns, then each warning it raised, in the notebook itself.

# %%
import textwrap
import warnings


def show(read):
    """Print what read() returns, then each warning it raised; return those warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # show a warning even if it was shown before
        print(read())
    for warning in caught:
        # PyTorch ends the text with the C++ file it came from: cut, so it is the same everywhere
        text = str(warning.message).split(" (Triggered")[0]
        print(warning.category.__name__ + ":")
        print(textwrap.fill(text, 96))
    return caught

# %% [markdown]
# ## Reading an intermediate's `.grad`
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
# `None`, and PyTorch warns: reading it raises a `UserWarning`. `h` is not a leaf, so backward
# passed its gradient (12) on to `x` and then dropped it.
# </details>

# %%
caught = show(lambda: h.grad)

# %%
assert len(caught) == 1 and caught[0].category is UserWarning
assert "not a leaf Tensor" in str(caught[0].message)
assert ".retain_grad()" in str(caught[0].message)

# %% [markdown]
# The warning says it all: the `.grad` of a non-leaf "won't be populated", and if you want it,
# call `.retain_grad()`. Reading a leaf's `.grad`, even when it is `None`, never warns:

# %%
untouched = torch.tensor(1.0, requires_grad=True)
caught = show(lambda: (x.grad, untouched.grad))
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
# Call `h.retain_grad()` *before* `backward()`: it marks `h`, and `h.retains_grad` tells
# whether a tensor is marked. The diagram draws a marked intermediate in green. This time `h`
# is used twice: $y = h^2 + h$.

# %%
x = torch.tensor(2.0, requires_grad=True)
h = x * 3
h.retain_grad()
y = h**2 + h
print(h.retains_grad, h.is_leaf)

# %%
assert h.retains_grad and not h.is_leaf

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# <details><summary>What will <code>h.grad</code> and <code>x.grad</code> print after
# <code>y.backward()</code>? Click to reveal</summary>
#
# `tensor(13.)` and `tensor(39.)`. `h` receives $2h = 12$ from $h^2$ and 1 from $+\,h$, and
# `h.grad` keeps their total, 13: the mark asks the engine to store the gradient for `h` when
# all of it has arrived. `x` gets $13 \cdot dh/dx = 39$, as it would without the mark:
# retaining changes nothing about the leaves; it only keeps one more gradient.
# </details>

# %%
y.backward()
print(h.grad, x.grad)

# %%
assert h.grad.item() == 2 * h.item() + 1  # from h**2, and from + h
assert x.grad.item() == h.grad.item() * 3  # the chain rule, link by link

# %% [markdown]
# After backward, both `x` and `h` show a gradient:

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# Step by step, on a fresh copy, asking first: in which step is `h.grad` written, and with
# which of the two gradients that reach `h`?

# %% tags=["minigrad-only"]
x = torch.tensor(2.0, requires_grad=True)
h = x * 3
h.retain_grad()
y = h**2 + h
viz.backward_steps(y, predict=True)

# %% [markdown]
# Two details. First, on a leaf `retain_grad()` does nothing: leaves keep their gradient anyway
# (and `retains_grad` stays `False` for them). Second, the output itself can retain too.
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
# ## Your turn: a gradient along a chain
#
# A chain of layers, $h_k = \tanh(w_k\, h_{k-1})$ for $k = 1, \dots, n$, starting from
# $h_0 = x$. Write `chain_gradients(x, weights)`: run the chain with one weight per layer, keep
# the gradient of every $h_k$ (the last one is the output), call `backward()` once on the
# output, and return the list of the $n$ gradients, $h_1$'s first.

# %% tags=["build"]
def chain_gradients(x, weights):
    ### BEGIN SOLUTION
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        h.retain_grad()
        layers.append(h)
    h.backward()
    return [layer.grad for layer in layers]
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import retain_grad as check

check.chain_gradients(chain_gradients)

# %% [markdown]
# Five layers with $w_k = 1.5$, from $x = 1$. Going back one layer multiplies the gradient by
# that layer's local slope, $w_k (1 - h_k^2)$ (the derivative of tanh is $1 - \tanh^2$).
#
# <details><summary>From <code>h5</code> back to <code>h1</code>, will the gradients grow or
# shrink? Click to reveal</summary>
#
# Shrink, by a factor of 2.5 to 3 per layer: each $h_k$ is close to 1, so $1 - h_k^2$ is small,
# and $w_k = 1.5$ does not make up for it: the gradient fades towards the input. This is the
# *vanishing gradient* of deep networks: the first layers get the faintest signal (notebook 14
# measures it per layer).
# </details>

# %%
chain = chain_gradients(torch.tensor(1.0, requires_grad=True), [1.5] * 5)
for k, grad in enumerate(chain, 1):
    print(f"h{k}.grad = {grad.item():.4f}")

# %%
assert all(earlier.item() < later.item() for earlier, later in zip(chain, chain[1:]))

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
# - Retained gradients show how the chain rule scales a gradient layer by layer: through
#   saturated `tanh` layers it fades towards the input.
#
# Exercises: [exercises/ex06_retain_grad.ipynb](../exercises/ex06_retain_grad.ipynb).
# Next: [07 · Hooks](07_hooks.ipynb), which look at a gradient as it passes, or change it.
