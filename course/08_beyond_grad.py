# %% [markdown]
# # 08 · Beyond `.grad`: `retain_graph`, `autograd.grad`, second derivatives, `detach()`
#
# `loss.backward()` then `.grad` is the everyday way to get gradients, and it makes three
# choices for you: the graph is thrown away afterwards, the results go into `.grad` (added to
# what is there), and the gradients themselves are plain numbers with no graph of their own.
# Each choice can be changed. This notebook changes them one at a time, then looks at the two
# ways to keep a computation *out* of the graph: `detach()` and `torch.no_grad()`.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %%
import matplotlib.pyplot as plt

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## The same backward twice: `retain_graph`
#
# $y = x^2$ at $x = 3$. Backward once gives $dy/dx = 6$. Notebook 03 called `backward()` on
# *different* results and saw the gradients add up. What about the *same* result twice?
#
# <details><summary>What will the second <code>y.backward()</code> do? Click to reveal</summary>
#
# Raise a `RuntimeError`: *Trying to backward through the graph a second time*. `x.grad` keeps
# the 6 from the first pass.
# </details>

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x**2
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print(error)
print("x.grad:", x.grad)

# %%
assert x.grad.item() == 6.0

# %% [markdown]
# The message explains it: the values an operation saved for its backward (notebook 07) are
# freed as soon as its backward has run, because in training they are most of the memory and
# nobody needs them twice. A second pass that reaches a node whose saved values are gone fails.
# The backward view with `show_saved=True`, on a fresh copy, before and after one backward
# pass: `PowBackward0` keeps `x` (its derivative is $2x$), then lets it go.

# %% tags=["minigrad-only"]
x = torch.tensor(3.0, requires_grad=True)
y = x**2
viz.draw(y, view="backward", show_saved=True)

# %% tags=["minigrad-only"]
y.backward()
viz.draw(y, view="backward", show_saved=True)

# %% [markdown]
# `retain_graph=True` keeps the saved values, so the graph can be walked again.
#
# <details><summary>What will <code>x.grad</code> print after two passes? Click to
# reveal</summary>
#
# `tensor(12.)`: $6 + 6$. The second pass adds its gradient to `.grad`, as any backward does.
# </details>

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x**2
y.backward(retain_graph=True)
y.backward()
x.grad

# %%
assert x.grad.item() == 6.0 + 6.0

# %% [markdown]
# Only the *last* pass may drop `retain_graph`. It is needed when two losses share part of a
# graph and you call `backward()` on each (notebook 05's Jacobian did one pass per row). A node
# that saved nothing has nothing to free, so a graph made only of such nodes can be walked twice
# even without it; `x + 1` is one (notebook 07: `AddBackward0` saves nothing). Relying on that
# would be fragile.

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x + 1
y.backward()
y.backward()
x.grad

# %%
assert x.grad.item() == 2.0

# %% [markdown]
# ## `torch.autograd.grad`: gradients as return values
#
# `torch.autograd.grad(outputs, inputs)` runs the same backward pass but *returns* the
# gradients of `outputs` with respect to `inputs`.
#
# <details><summary>For <code>y = x**3</code> at 2, what will it return, and what is
# <code>x.grad</code> afterwards? Click to reveal</summary>
#
# `(tensor(12.),)`: a **tuple**, one gradient per input, even for a single input. `x.grad` stays
# `None`: `autograd.grad` writes no `.grad` anywhere, so there is nothing to reset and nothing
# accumulates.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
gradients = torch.autograd.grad(y, x)
print(gradients)
print("x.grad:", x.grad)

# %%
assert isinstance(gradients, tuple) and len(gradients) == 1
assert gradients[0].item() == 3 * 2.0**2 and x.grad is None

# %% [markdown]
# With several inputs, pass a list and unpack the tuple. It also frees the graph unless told
# otherwise (`retain_graph=True`), like `backward()`.

# %%
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
line = w * 2.0 + b
dw, db = torch.autograd.grad(line, [w, b])
print(dw, db, w.grad, b.grad)

# %%
assert (dw.item(), db.item()) == (2.0, 1.0) and w.grad is None and b.grad is None

# %% [markdown]
# ## Second derivatives: `create_graph=True`
#
# The gradients so far were plain tensors: no `grad_fn`, no history. With `create_graph=True`
# the backward pass is itself recorded, so the gradient it returns is a function of `x` that
# can be differentiated again.
#
# For $y = x^3$: $y' = 3x^2$ and $y'' = 6x$. At $x = 2$ both are 12.
#
# <details><summary>What will <code>first</code> print, and then <code>second</code>? Click to
# reveal</summary>
#
# `tensor(12., grad_fn=<MulBackward0>)`, then `tensor(12.)`. The first derivative carries a
# `grad_fn`: it was computed by recorded operations (the backward of `pow` multiplies). The
# second was computed without `create_graph`, so it is a plain tensor.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(first,) = torch.autograd.grad(y, x, create_graph=True)
print(first)
(second,) = torch.autograd.grad(first, x)
print(second)

# %%
assert first.item() == 3 * 2.0**2 and first.grad_fn is not None
assert second.item() == 6 * 2.0 and second.grad_fn is None

# %% [markdown]
# Here is the graph behind `first`: the backward of `pow`, written out as ordinary operations
# on `x`. Differentiating it is just one more backward pass through it.

# %% tags=["minigrad-only"]
viz.draw(first)

# %% [markdown]
# Nothing stops at two. On a whole range of points at once: `f(xs).sum()` has, at each point,
# the derivative of `f` there (each term depends on one point only), so one call gives $f'$
# everywhere, and one more gives $f''$.

# %%
xs = (torch.arange(-20.0, 21.0) / 10).requires_grad_()  # -2.0, -1.9, ..., 2.0
f = xs**3
(df,) = torch.autograd.grad(f.sum(), xs, create_graph=True)
(d2f,) = torch.autograd.grad(df.sum(), xs)
print(df[::10])
print(d2f[::10])

# %%
plain = xs.detach()
assert torch.allclose(df.detach(), 3 * plain**2) and torch.allclose(d2f, 6 * plain)

# %%
fig, ax = plt.subplots(figsize=(5.5, 3.2))
ax.plot(plain.tolist(), f.tolist(), label="f(x) = x³")
ax.plot(plain.tolist(), df.tolist(), label="f'(x) = 3x²")
ax.plot(plain.tolist(), d2f.tolist(), label="f''(x) = 6x")
ax.scatter([2.0], [12.0], color="black", zorder=3)
ax.annotate("f'(2) = f''(2) = 12", (2.0, 12.0), textcoords="offset points", xytext=(-14, 0),
            ha="right", va="center")
ax.axhline(0, color="gray", linewidth=0.5)
ax.set_xlabel("x")
ax.legend()
plt.show()

# %% [markdown]
# Second derivatives are behind gradient penalties (WGAN-GP), meta-learning (MAML) and
# Hessian-vector products. `backward(create_graph=True)` exists too, but PyTorch warns that it
# makes `.grad` and the parameter refer to each other (a memory leak unless you reset `.grad`);
# `autograd.grad` is the way it recommends.
#
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
# (and, notebook 07, its version counter moves). For an independent copy, `t.detach().clone()`.
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
# model (no graph means less memory and time), and updating parameters in place (notebook 07).
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
# - `backward()` frees the saved values of the graph as it goes; a second pass raises *Trying to
#   backward through the graph a second time*. `retain_graph=True` keeps them.
# - `torch.autograd.grad(outputs, inputs)` returns a tuple of gradients and leaves `.grad`
#   alone.
# - `create_graph=True` records the backward pass, so gradients can be differentiated again:
#   $\frac{d^2}{dx^2} x^3 = 6x$, 12 at $x = 2$.
# - `detach()` gives the same values as a constant (shared memory); `torch.no_grad()` records
#   nothing in a block; `requires_grad_(False)` freezes a leaf.
#
# Exercises: [exercises/ex08_beyond_grad.ipynb](../exercises/ex08_beyond_grad.ipynb).
# Next: [09 · Inside the engine](09_inside_the_engine.ipynb).
