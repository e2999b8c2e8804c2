# %% [markdown]
# # 15 · Gradients of gradients: `create_graph=True`
#
# Every gradient so far came out of `backward()` or `torch.autograd.grad` as a plain tensor:
# numbers, no `grad_fn`, nothing recorded about how they were computed. That is what training
# needs. Sometimes, though, the question is how a gradient itself changes as the input moves:
# the curvature of a loss, a penalty on the size of a gradient, a step of Newton's method. For
# that, the backward pass has to be recorded like any other computation, so that autograd can
# go back through it too. This notebook is about the one argument that does it.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %%
import math

import matplotlib.pyplot as plt

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## Differentiating twice
#
# Take $y = x^3$ at $x = 1$. By hand, $y' = 3x^2$ and $y'' = 6x$. Notebook 09's
# `torch.autograd.grad(y, x)` gives the first; passing `create_graph=True` as well asks it to
# record the operations the backward pass does. Then call `autograd.grad` again, this time on
# the first derivative.
#
# <details><summary>What will <code>first</code> print, and then <code>second</code>? Click to
# reveal</summary>
#
# `tensor(3., grad_fn=<MulBackward0>)`, then `tensor(6.)`: $3 \cdot 1^2$ and $6 \cdot 1$.
# `first` has a `grad_fn` because the backward of `pow` was done with recorded operations
# (a power, then products), so it is a function of `x` that autograd can differentiate. The second
# call had no `create_graph`, so `second` is plain numbers again.
# </details>

# %%
x = torch.tensor(1.0, requires_grad=True)
y = x**3
(first,) = torch.autograd.grad(y, x, create_graph=True)
print(first)
(second,) = torch.autograd.grad(first, x)
print(second)

# %%
assert first.item() == 3 * 1.0**2 and first.grad_fn is not None
assert second.item() == 6 * 1.0 and second.grad_fn is None

# %% [markdown]
# Here is what was recorded: the backward of `pow`, written out as ordinary operations on `x`.
# `PowBackward0` is `x ** 2`, `MulBackward1` multiplies it by the number 3, and `MulBackward0`
# by the gradient the pass started from, $dy/dy = 1$ (the grey constant). The second call is
# one more backward pass, through this graph.

# %% tags=["minigrad-only"]
viz.draw(first)

# %% [markdown]
# Without `create_graph=True` the first derivative has no graph, and asking for its
# derivative fails: there is nothing to go back through.

# %%
x = torch.tensor(1.0, requires_grad=True)
(plain,) = torch.autograd.grad(x**3, x)
try:
    torch.autograd.grad(plain, x)
except RuntimeError as error:
    print(error)

# %%
assert plain.grad_fn is None and not plain.requires_grad

# %% [markdown]
# ## Your turn: a Newton step
#
# Gradient descent walks downhill by a step you choose. Newton's method chooses the step from
# the curvature: to find where $f'$ is zero, it moves $x$ to $x - f'(x) / f''(x)$. Where the
# slope changes fast, the step is short; where it barely changes, the step is long.
#
# Write the two derivatives in `newton_step(f, x)`: `slope`, $f'(x)$, and `curvature`,
# $f''(x)$, both with `torch.autograd.grad`, so that `x.grad` stays `None`. The given lines
# after yours take the step (without recording it) and hand back a new leaf for the next step.

# %% tags=["build"]
def newton_step(f, x):
    ### BEGIN SOLUTION
    (slope,) = torch.autograd.grad(f(x), x, create_graph=True)
    (curvature,) = torch.autograd.grad(slope, x)
    ### END SOLUTION
    with torch.no_grad():
        return (x - slope / curvature).requires_grad_()


# %% tags=["minigrad-only"]
from minigrad_course.checks import second_derivatives as check

check.newton_step(newton_step)

# %% [markdown]
# Yours on $f(x) = e^x - 2x$, starting at $x = 2$. Its slope $e^x - 2$ is zero at $x = \ln 2
# \approx 0.6931$, its lowest point.

# %%
def f(x):
    return x.exp() - 2 * x


x = torch.tensor(2.0, requires_grad=True)
for step in range(5):
    x = newton_step(f, x)
    print(x)

# %%
assert abs(x.item() - math.log(2)) < 1e-5 and x.is_leaf and x.grad is None

# %% [markdown]
# ## The whole curve at once
#
# `autograd.grad` starts from a single number unless it is given `grad_outputs` (notebook 05's
# `gradient` argument, under another name). Over many points at once, sum first: each term of
# `f(xs).sum()` depends on one point only, so its gradient holds $f'$ at every point, and that
# gradient, recorded, can be summed and differentiated again.

# %%
xs = (torch.arange(-20.0, 21.0) / 10).requires_grad_()  # -2.0, -1.9, ..., 2.0
ys = xs**3
(df,) = torch.autograd.grad(ys.sum(), xs, create_graph=True)
(d2f,) = torch.autograd.grad(df.sum(), xs)
print(df[::10])
print(d2f[::10])

# %%
plain = xs.detach()
assert torch.allclose(df.detach(), 3 * plain**2) and torch.allclose(d2f, 6 * plain)

# %%
fig, ax = plt.subplots(figsize=(5.5, 3.2))
ax.plot(plain.tolist(), ys.tolist(), label="f(x) = x³")
ax.plot(plain.tolist(), df.tolist(), label="f'(x) = 3x²")
ax.plot(plain.tolist(), d2f.tolist(), label="f''(x) = 6x")
ax.scatter([1.0, 1.0], [3.0, 6.0], color="black", zorder=3)  # first and second, above
ax.annotate("f''(1) = 6", (1.0, 6.0), textcoords="offset points", xytext=(-8, 0), ha="right",
            va="center")
ax.annotate("f'(1) = 3", (1.0, 3.0), textcoords="offset points", xytext=(6, -6), ha="left",
            va="top")
ax.axhline(0, color="gray", linewidth=0.5)
ax.set_xlabel("x")
ax.legend()
plt.show()

# %% [markdown]
# Gradient penalties (WGAN-GP), meta-learning (MAML) and Hessian-vector products all rest on
# this one argument. `backward(create_graph=True)` exists too, but PyTorch warns that it
# makes `.grad` and the parameter refer to each other (a memory leak unless you reset `.grad`);
# `autograd.grad` is the way it recommends.
#
# ## Summary
#
# - A gradient is a plain tensor unless `create_graph=True` records the backward pass that
#   made it; then it has a `grad_fn` and can be differentiated: $\frac{d^2}{dx^2} x^3 = 6x$.
# - Asking for the derivative of a gradient that was not recorded raises an error: it has no
#   graph to go back through.
# - Newton's step $x - f'(x)/f''(x)$ takes two passes, the first recorded.
# - Over many points, differentiate the sum, then the sum of the result.
#
# Exercises:
# [exercises/ex15_second_derivatives.ipynb](../exercises/ex15_second_derivatives.ipynb).
# Next: [16 · Keeping less for backward](16_saved_tensors.ipynb).
