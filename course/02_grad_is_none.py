# %% [markdown]
# # 02 · `.grad` is None until backward
#
# `.grad` is where PyTorch puts the derivative of a result with respect to a tensor. Creating
# and computing with tensors does not fill it; `backward()` does, and only on the tensors that
# asked. Here you first compute those derivatives by hand, then let `backward()` check you.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## A small graph, and no gradient yet
#
# Take $a = 2$ and $b = 3$, both asking for gradients, and compute $c = a b = 6$,
# $d = c + a = 8$ and $L = d^2 = 64$. Note that `a` is used twice: in `c` and again in `d`.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = c + a
L = d * d
L

# %% [markdown]
# The graph exists now: `L` has a `grad_fn` (`MulBackward0`), linked back through `d` and `c`
# to the leaves. Nothing has been differentiated yet.
#
# <details><summary>What will <code>a.grad</code> print now? Click to reveal</summary>
#
# `None`. Building the graph only records *how* `L` was computed. No derivative has been taken,
# so there is no gradient to show, not even a zero.
# </details>

# %%
print(a.grad, b.grad)

# %%
assert a.grad is None and b.grad is None

# %% [markdown]
# The diagram shows the same: two leaves that require grad, and `grad None` in every box.

# %% tags=["minigrad-only"]
viz.draw(L)

# %% [markdown]
# ## Your turn: the gradients by hand
#
# Before asking for them, work out $\partial L/\partial a$ and $\partial L/\partial b$ the way
# `backward()` will: start at $L$ with $\partial L/\partial L = 1$ and walk back one node at a
# time. Each node multiplies the gradient that arrives at it by its *local derivative* and sends
# the result to each input (the chain rule):
#
# | node | sends to | local derivative |
# | --- | --- | --- |
# | $L = d \cdot d$ | `d`, as each factor | $d$ each: $2d$ in all |
# | $d = c + a$ | `c` and `a` | $1$ and $1$ |
# | $c = a \cdot b$ | `a` and `b` | $b$ and $a$ |
#
# A tensor used twice receives two gradients, and they add up. Write the numbers in the cell
# below, in place of its `raise NotImplementedError()`, and run it (**Shift+Enter**):
#
# ```python
# grad_L = 1.0
# grad_d = ...  # what L sends to d
# grad_c = ...  # what d sends to c
# grad_b = ...  # what c sends to b
# grad_a = ...  # a gets two: one from c, one straight from d
# ```
#
# Until you do, the cells that use your numbers wait, and say so.

# %% tags=["build"]
grad_L = 1.0
### BEGIN SOLUTION
grad_d = 2 * d.item() * grad_L  # d from each factor: 8 + 8 = 16
grad_c = 1 * grad_d  # 16
grad_b = a.item() * grad_c  # 2 * 16 = 32
grad_a = b.item() * grad_c + 1 * grad_d  # 3 * 16 through c, plus 16 straight from d: 64
### END SOLUTION

# %% [markdown]
# Now `backward()` walks the graph from `L` back to the leaves and stores
# $\partial L/\partial \text{leaf}$ in each leaf's `.grad`. It returns nothing.

# %%
result = L.backward()
print(result)
print("by hand: ", grad_a, grad_b)
print("backward:", a.grad, b.grad)

# %%
assert result is None
assert a.grad.item() == grad_a, f"your grad_a is {grad_a}; backward() says {a.grad.item()}"
assert b.grad.item() == grad_b, f"your grad_b is {grad_b}; backward() says {b.grad.item()}"
assert a.grad.shape == a.shape and not a.grad.requires_grad

# %% [markdown]
# Each gradient is a tensor with the shape of its leaf that does not itself require grad. (In
# one line: $L = (ab + a)^2$, so $\partial L/\partial a = 2(ab + a)(b + 1) = 64$.)
#
# `viz.backward_steps(L)` replays backward step by step (**Next ▶**, **◀ Previous**): which node
# runs, what arrives, what it sends on. Find your numbers: `d` gets 8 twice, `a` gets 16 and 48.
# It runs on a fresh copy, since a backward frees what the nodes saved (notebook 09).

# %% tags=["minigrad-only"]
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = c + a
L = d * d
viz.backward_steps(L)

# %% [markdown]
# ## A tensor that never asked stays `None`
#
# A fresh example: `z` is created with `requires_grad=False` (the default) and is multiplied by
# a leaf `k` that does require grad.
#
# <details><summary>What will <code>z.grad</code> print after backward? Click to reveal</summary>
#
# `None`. The multiplication's backward does not even compute a gradient for an input that does
# not require grad: backward only fills `.grad` for leaves with `requires_grad=True`.
# </details>

# %%
k = torch.tensor(0.5, requires_grad=True)
z = torch.tensor(4.0, requires_grad=False)
v = k * z
v.backward()
print("k.grad =", k.grad)
print("z.grad =", z.grad)

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
# ## What the number in `.grad` means
#
# Take the smallest example there is: $y = x^2$ at $x = 2$, whose derivative is $2x = 4$.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**2
print("before:", x.grad)
y.backward()
print("after: ", x.grad)

# %%
assert x.grad.item() == 2 * x.item()

# %% [markdown]
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
# (Exactly 4.1, 4.01 and 4.001: float32 rounding blurs the smallest nudge, which is why
# numerical gradient checks, notebook 12, use `float64`.)
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
# `x.detach()` is `x` without its history, which keeps the check out of the graph. `sum()`
# matters: `backward()` without arguments needs a single number to start from (notebook 05).
#
# ## Summary
#
# - `.grad` is `None` until a `backward()` reaches the tensor; building the graph computes no
#   gradient.
# - Each node multiplies the gradient arriving at it by its local derivative; a tensor used
#   twice adds up what it receives. `backward()` does exactly what you did by hand.
# - `backward()` returns `None` and stores $\partial\,\text{output}/\partial\,\text{leaf}$ in the
#   `.grad` of every leaf that requires grad, with the leaf's shape.
# - That number is a slope: nudging the leaf by $\varepsilon$ moves the output by about
#   $\varepsilon$ times `.grad`. Stepping against it, `x -= lr * x.grad`, makes the output smaller.
# - Tensors with `requires_grad=False`, and leaves the output does not depend on, keep
#   `.grad = None`.
# - Tensors in the middle of the graph, like `c` and `d`, keep `.grad = None` too, for another
#   reason: notebook 06.
#
# Exercises: [exercises/ex02_grad_is_none.ipynb](../exercises/ex02_grad_is_none.ipynb).
# Next: [03 · Gradients accumulate](03_accumulation.ipynb).
