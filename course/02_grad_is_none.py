# %% [markdown]
# # 02 · `.grad` is None until backward
#
# `.grad` is where PyTorch puts the derivative of a result with respect to a tensor. It is not
# computed when you create a tensor, nor when you compute with it. It appears when you call
# `backward()`, and only on the tensors that asked for it. This notebook shows the three states a
# `.grad` can be in: `None` because backward has not run yet, a tensor of derivatives after it
# ran, and `None` for good because the tensor never asked.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %% [markdown]
# ## Three leaves and a line
#
# Take the line $y = w x + b$ at $x = 2$, $w = 3$, $b = 1$. All three inputs ask for gradients.

# %%
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x + b
y

# %% [markdown]
# The graph exists now: `y` has a `grad_fn` (`AddBackward0`), linked to a `MulBackward0`, linked
# to the leaves. But nothing has been differentiated yet.
#
# <details><summary>What will <code>x.grad</code> print now? Click to reveal</summary>
#
# `None`. Building the graph only records *how* `y` was computed. No derivative has been taken,
# so there is no gradient to show, not even a zero.
# </details>

# %%
print(x.grad, w.grad, b.grad)

# %%
assert x.grad is None and w.grad is None and b.grad is None

# %% [markdown]
# The diagram shows the same: three leaves that require grad, and `grad None` in every box.

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# ## `backward()` fills `.grad` for every leaf that requires grad
#
# `y.backward()` walks the graph from `y` back to the leaves and stores the derivative of `y`
# with respect to each leaf in that leaf's `.grad`. It returns nothing: the results are only in
# `.grad`.
#
# <details><summary>What will the three gradients be? Click to reveal</summary>
#
# $\partial y/\partial x = w = 3$, $\partial y/\partial w = x = 2$ and $\partial y/\partial b = 1$:
# each input's gradient is what it is multiplied by (and `b` is multiplied by nothing).
# </details>

# %%
result = y.backward()
print(result)
print(f"dy/dx = {x.grad}")
print(f"dy/dw = {w.grad}")
print(f"dy/db = {b.grad}")

# %% [markdown]
# Each gradient is a tensor with the same shape as its leaf, and it does not itself require grad.

# %%
assert result is None
assert x.grad.item() == w.item() and w.grad.item() == x.item() and b.grad.item() == 1.0
assert x.grad.shape == x.shape and not x.grad.requires_grad

# %% [markdown]
# Drawn again after backward, the leaves' boxes hold their gradients. (`y`'s box still says
# `None`: backward keeps gradients only for leaves, the subject of notebook 06.)

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# ### Watching backward work
#
# `viz.backward_steps(y)` runs `y.backward()` for you and records each step: which node runs,
# what gradient it receives, what it sends to each input (the incoming gradient times the local
# derivative: the chain rule), and when a leaf's `.grad` is written. Here it is on a fresh copy of
# the same line: a backward frees the values its nodes saved for it, and `MulBackward0` saved `w`
# and `x`, so the `y` above cannot be walked back a second time (notebook 09 shows the error).
# Step through the frames with **Next ▶** and **◀ Previous**.

# %% tags=["minigrad-only"]
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x + b
viz.backward_steps(y)

# %% [markdown]
# ## A tensor that never asked stays `None`
#
# A fresh example: `z` is created with `requires_grad=False` (the default) and is multiplied by
# a leaf `k` that does require grad.
#
# <details><summary>What will <code>z.grad</code> print after backward? Click to reveal</summary>
#
# `None`. The multiplication's backward does not even compute a gradient for an input that does
# not require grad (in notebook 01 we saw its slot in `next_functions` is `None`). Backward only
# fills `.grad` for leaves with `requires_grad=True`.
# </details>

# %%
k = torch.tensor(0.5, requires_grad=True)
z = torch.tensor(4.0, requires_grad=False)
v = k * z
v.backward()
print(f"k.grad = {k.grad}")
print(f"z.grad = {z.grad}")

# %%
assert z.grad is None and k.grad.item() == z.item()

# %% tags=["minigrad-only"]
viz.draw(v)

# %% [markdown]
# One more case: a leaf that requires grad but was not used to compute the output.
#
# <details><summary>What will <code>unused.grad</code> print? Click to reveal</summary>
#
# `None`, not `tensor(0.)`. Backward only visits what the output was computed from, so it never
# reaches `unused`, and nothing writes its `.grad`.
# </details>

# %%
used = torch.tensor(1.5, requires_grad=True)
unused = torch.tensor(5.0, requires_grad=True)
u = used * 2
u.backward()
print(used.grad, unused.grad)

# %%
assert unused.grad is None

# %% [markdown]
# ## Square a number
#
# The smallest example there is: $y = x^2$ at $x = 2$. The derivative is $2x = 4$.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**2
print("before:", x.grad)
y.backward()
print("after: ", x.grad)

# %%
assert x.grad.item() == 2 * x.item()

# %% [markdown]
# ## What the number in `.grad` means
#
# `x.grad` is a rate: how fast `y` changes as `x` changes, at this very `x`. You can measure it
# without autograd. Nudge `x` by a small amount $\varepsilon$, see how far `y` moves, and divide:
# $\Delta y / \varepsilon$ comes close to `x.grad`, and closer as $\varepsilon$ shrinks.
# (`torch.no_grad()` keeps these side calculations out of the graph; notebook 10 explains it.)

# %%
with torch.no_grad():
    for eps in [0.1, 0.01, 0.001]:
        change = (x + eps) ** 2 - y
        print(f"eps {eps:<6} change in y / eps = {(change / eps).item():.4f}")
print("x.grad =", x.grad)

# %% [markdown]
# The exact values would be 4.1, 4.01 and 4.001; the last digits of the smallest nudge are lost to
# float32 rounding, which is why numerical checks of gradients (notebook 12) use `float64`.
# %% [markdown]
# As a picture: `x.grad` is the slope of the tangent, the straight line that touches the curve
# $y = x^2$ at $x = 2$ without crossing it.

# %%
import matplotlib.pyplot as plt

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %%
x0, y0, slope = x.item(), y.item(), x.grad.item()
grid = [i / 10 for i in range(36)]
fig, ax = plt.subplots(figsize=(4.5, 3))
ax.plot(grid, [g**2 for g in grid], label="$y = x^2$")
tangent = [y0 + slope * (g - x0) for g in grid]
ax.plot(grid, tangent, "--", label=f"tangent, slope x.grad = {slope:g}")
ax.plot([x0], [y0], "o", color="black")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.legend()
plt.show()

# %% [markdown]
# The sign tells you which way is downhill. Here `x.grad` is positive: a larger `x` gives a larger
# `y`. To make `y` smaller, step `x` the other way, against the gradient, by a small multiple
# of it: `x -= lr * x.grad`, with a learning rate `lr`. That one line is gradient descent, the
# update every optimizer makes (notebook 04).
#
# <details><summary>With <code>lr = 0.1</code>, what will <code>x</code> and the new
# <code>x**2</code> be after one step? Click to reveal</summary>
#
# `x` goes from 2 to $2 - 0.1 \cdot 4 = 1.6$, and $y$ from 4 down to $1.6^2 = 2.56$. Each step
# moves `x` by `lr` times the slope, so steps shrink as the curve flattens near its minimum at 0.
# </details>

# %%
with torch.no_grad():
    x -= 0.1 * x.grad
print(x)
print(x**2)

# %%
assert abs(x.item() - 1.6) < 1e-6

# %% [markdown]
# ## A vector of leaves
#
# `.grad` has the shape of its tensor, one partial derivative per element. Square each element of
# a vector and add the squares: $s = \sum_i x_i^2$.
#
# <details><summary>What will <code>x.grad</code> print? Click to reveal</summary>
#
# `tensor([4., 6.])`: $\partial s/\partial x_i = 2 x_i$, so $2 \cdot 2$ and $2 \cdot 3$, one entry
# per element of `x`.
# </details>

# %%
x = torch.tensor([2.0, 3.0], requires_grad=True)
s = x.pow(2).sum()
s.backward()
x.grad

# %%
assert x.grad.shape == x.shape
assert torch.equal(x.grad, 2 * x.detach())

# %% [markdown]
# `x.detach()` is `x` without its history; comparing with it keeps the check itself out of the
# graph. `sum()` matters here: `backward()` without arguments needs a single number to start
# from. Notebook 05 explains why and what to do for a vector result.
#
# ## Summary
#
# - `.grad` is `None` until a `backward()` reaches the tensor; building the graph computes no
#   gradient.
# - `backward()` returns `None` and stores $\partial\,\text{output}/\partial\,\text{leaf}$ in the
#   `.grad` of every leaf that requires grad, with the leaf's shape.
# - That number is a slope: nudging the leaf by $\varepsilon$ moves the output by about
#   $\varepsilon$ times `.grad`. Stepping against it, `x -= lr * x.grad`, makes the output smaller.
# - Tensors with `requires_grad=False`, and leaves the output does not depend on, keep
#   `.grad = None`.
# - What about tensors in the middle of the graph, like `w * x`? Their `.grad` stays `None` too,
#   for a different reason: notebook 06.
#
# Exercises: [exercises/ex02_grad_is_none.ipynb](../exercises/ex02_grad_is_none.ipynb).
# Next: [03 · Gradients accumulate](03_accumulation.ipynb).
