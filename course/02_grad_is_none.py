# %% [markdown]
# # 02 · Where a gradient comes from: nudging, the chain rule, `backward()`
#
# A gradient answers one question: if I nudge this input a little, how much does the output
# move? Here you measure that by nudging, see how slopes combine along a chain, check one
# gradient yourself, and only then let `backward()` compute it and compare.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %%
import matplotlib.pyplot as plt

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## Nudge the input, watch the output
#
# Take $y = x^2$ at $x = 2$, with plain Python numbers. Move $x$ by a small $\varepsilon$, see
# how far $y$ moves, and divide by $\varepsilon$: how many units $y$ moves per unit of $x$.
#
# <details><summary>As the nudge shrinks, which number will that ratio approach? Click to
# reveal</summary>
#
# 4: the *slope* of $x^2$ at 2, which calculus writes $dy/dx = 2x$. Each smaller nudge comes
# closer (4.1, then 4.01, then 4.001).
# </details>

# %%
def f(x):
    return x**2


x0 = 2.0
for eps in [0.1, 0.01, 0.001]:
    moved = f(x0 + eps) - f(x0)
    print(f"nudge {eps:<6} y moves {moved:.6f}   per unit of x: {moved / eps:.4f}")

# %% [markdown]
# That limit is the derivative, and it is the number PyTorch stores in `.grad`. As a picture:
# the slope of the straight line that touches the curve at $x = 2$.

# %%
grid = [i / 10 for i in range(36)]
fig, ax = plt.subplots(figsize=(4.5, 3))
ax.plot(grid, [f(g) for g in grid], label="$y = x^2$")
ax.plot(grid, [f(x0) + 4 * (g - x0) for g in grid], "--", label="slope 4 at x = 2")
ax.plot([x0], [f(x0)], "o", color="black")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.legend()
plt.show()

# %% [markdown]
# ## Along a chain
#
# Now two steps: $c = 3a$, then $L = c^2$, at $a = 1$ (so $c = 3$, $L = 9$). Nudging $a$ moves
# $c$ 3 times as much, and nudging $c$ moves $L$ $2c = 6$ times as much.
#
# <details><summary>How many units will <code>L</code> move per unit of <code>a</code>? Click
# to reveal</summary>
#
# 18, that is $3 \times 6$. A nudge $\varepsilon$ of $a$ becomes $3\varepsilon$ in $c$, and
# that nudge of $c$ becomes $6 \cdot 3\varepsilon$ in $L$: each step scales the nudge by its own
# slope, so the slopes multiply. That is the *chain rule*.
# </details>

# %%
a0, eps = 1.0, 1e-6
print(f"c per unit of a: {(3 * (a0 + eps) - 3 * a0) / eps:.3f}")
print(f"L per unit of c: {((3 * a0 + eps) ** 2 - (3 * a0) ** 2) / eps:.3f}")
print(f"L per unit of a: {((3 * (a0 + eps)) ** 2 - (3 * a0) ** 2) / eps:.3f}")

# %% [markdown]
# ## Your turn: a gradient by nudging
#
# Write `slope(f, x)`: how far `f` moves per unit of `x`, measured with a small nudge of `x`
# (try $\varepsilon = 10^{-6}$), with plain Python numbers and no autograd. Nudging both ways,
# to $x + \varepsilon$ and to $x - \varepsilon$, is more accurate than one way.

# %% tags=["build"]
def slope(f, x):
    ### BEGIN SOLUTION
    eps = 1e-6
    return (f(x + eps) - f(x - eps)) / (2 * eps)
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import grad_is_none as check

check.slope(slope)

# %% [markdown]
# ## `backward()` does the same, node by node
#
# Take $a = 2$ and $b = 3$, both asking for gradients, and compute $c = ab$, $d = c + a$ and
# $L = d^2$. Note that `a` is used twice: in `c` and again in `d`.
#
# <details><summary>What will <code>a.grad</code> print now, before any backward? Click to
# reveal</summary>
#
# `None`: no gradient yet. Building the graph only records *how* `L` was computed. No
# derivative has been taken, so there is no gradient to show, not even a zero: `.grad` is `None`
# until a `backward()` reaches the tensor.
# </details>

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = c + a
L = d * d
print(a.grad, b.grad)

# %%
assert a.grad is None and b.grad is None

# %% tags=["minigrad-only"]
viz.draw(L)

# %% [markdown]
# `backward()` will work out $\partial L/\partial a$ and $\partial L/\partial b$ with the chain
# rule, from $L$ back to the leaves: it starts with $\partial L/\partial L = 1$, and each node
# multiplies the gradient that arrives by its *local* slope and sends the result to each input:
#
# | node | sends to | local slope |
# | --- | --- | --- |
# | $L = d \cdot d$ | `d`, as each factor | $d$ each: $2d$ in all |
# | $d = c + a$ | `c` and `a` | $1$ and $1$ |
# | $c = a \cdot b$ | `a` and `b` | $b$ and $a$ |
#
# A tensor used twice receives two gradients, and they add up. Do it by hand first: write the
# numbers in the cell below, in place of its `raise NotImplementedError()`, and run it
# (**Shift+Enter**):
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
# Before asking `backward()`, check your two numbers with your `slope`, nudging one input while
# the other stays still:

# %%
def loss(a, b):
    return (a * b + a) ** 2


by_nudging = slope(lambda a: loss(a, 3.0), 2.0), slope(lambda b: loss(2.0, b), 3.0)
print("by hand:   ", grad_a, grad_b)
print(f"by nudging: {by_nudging[0]:.3f} {by_nudging[1]:.3f}")

# %% [markdown]
# Now `backward()` walks the graph from `L` back to the leaves and stores
# $\partial L/\partial \text{leaf}$ in each leaf's `.grad`. It returns nothing.
# This cell runs once per graph (notebook 09 says why): after fixing your numbers above, run
# again from the cell that builds `L`.

# %%
result = L.backward()
print(result)
print("by hand: ", grad_a, grad_b)
print("backward:", a.grad, b.grad)

# %%
assert result is None
assert a.grad.item() == grad_a, f"your grad_a is {grad_a}; backward() says {a.grad.item()}"
assert b.grad.item() == grad_b, f"your grad_b is {grad_b}; backward() says {b.grad.item()}"
assert abs(a.grad.item() - by_nudging[0]) < 1e-3 and abs(b.grad.item() - by_nudging[1]) < 1e-3
assert a.grad.shape == a.shape and not a.grad.requires_grad

# %% [markdown]
# Each gradient is a tensor with the shape of its leaf that does not itself require grad.
#
# `viz.backward_steps(L, predict=True)` replays that backward pass one node at a time, on a
# fresh copy (a backward frees what the nodes saved, notebook 09). Each step first asks what
# the running node will send, with **?** in its place: say it, then press **Next ▶**.

# %% tags=["minigrad-only"]
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = c + a
L = d * d
viz.backward_steps(L, predict=True)

# %% [markdown]
# ## Which tensors get a `.grad`?
#
# A fresh example: `z` is created with `requires_grad=False` (the default) and is multiplied by
# a leaf `k` that does require grad.
#
# <details><summary>What will <code>z.grad</code> print after backward? Click to reveal</summary>
#
# `None`: a tensor that never asked for gradients gets none. The multiplication's backward does
# not even compute a gradient for `z`: only leaves with `requires_grad=True` get a `.grad`.
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
# ## A step downhill
#
# The sign of a gradient says which way is uphill. For $y = x^2$ at $x = 2$, `x.grad` is 4,
# positive: a larger `x` gives a larger `y`. To make `y` smaller, step the other way, by a small
# multiple `lr` (the *learning rate*) of the gradient: `x -= lr * x.grad`. That line is
# gradient descent; `torch.optim.SGD` makes exactly this update (notebook 04).
#
# <details><summary>With <code>lr = 0.1</code>, what will <code>x</code> and the new
# <code>x**2</code> be after one step? Click to reveal</summary>
#
# `x` goes from 2 to $2 - 0.1 \cdot 4 = 1.6$, and $y$ from 4 down to $1.6^2 = 2.56$. Each step
# moves `x` by `lr` times the slope, so steps shrink as the curve flattens near its minimum at 0.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
(x**2).backward()
with torch.no_grad():  # the update is not part of any graph (notebook 10)
    x -= 0.1 * x.grad
print(x)
print(x**2)

# %%
assert abs(x.item() - 1.6) < 1e-6

# %% [markdown]
# ## A vector of leaves
#
# `.grad` has the shape of its tensor, one partial derivative per element. Square each element of
# a vector and add the squares: $s = \sum_i x_i^2$, at $x = (2, 3)$.
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
# - A gradient is a slope: nudging a leaf by $\varepsilon$ moves the output by about
#   $\varepsilon$ times its `.grad`, which a finite difference can measure.
# - Along a chain the slopes multiply (the chain rule); a tensor used twice adds up what it
#   receives. `backward()` applies this node by node, from the output back, as you did by hand.
# - `.grad` is `None` until a `backward()` reaches the tensor; `backward()` returns `None` and
#   fills the `.grad` of every leaf that requires grad, with the leaf's shape.
# - Tensors with `requires_grad=False`, and leaves the output does not depend on, keep
#   `.grad = None`. So do tensors in the middle of the graph, like `c` and `d`, for another
#   reason: notebook 06.
# - `x -= lr * x.grad` is one step of gradient descent, as `torch.optim.SGD` takes it.
#
# Exercises: [exercises/ex02_grad_is_none.ipynb](../exercises/ex02_grad_is_none.ipynb).
# Next: [03 · A second `backward()`](03_accumulation.ipynb).
