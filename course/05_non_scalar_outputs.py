# %% [markdown]
# # 05 · Non-scalar outputs: the `gradient` argument
#
# So far every `backward()` started from a single number. A loss is a single number, so that is
# the common case. What happens when the output is a vector? This notebook answers that, says
# what the `gradient` argument of `backward()` means (how a loss further on depends on that
# vector), and how that becomes a *vector-Jacobian product*; then you build a whole Jacobian,
# one row at a time.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %%
import matplotlib.pyplot as plt

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## A vector result
#
# Square each element of a vector. The result has three elements.
#
# <details><summary>What happens on <code>y.backward()</code>? Click to reveal</summary>
#
# PyTorch refuses, with a `RuntimeError`: *grad can be implicitly created only for scalar
# outputs*. `y` is not a single number, and PyTorch will not guess what you want its gradient
# to be.
# </details>

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
try:
    y.backward()
except RuntimeError as error:
    print(error)

# %% [markdown]
# Nothing was computed: `x.grad` is still `None`. The diagram shows why backward hesitates: the
# output box holds three numbers, not one.

# %%
assert x.grad is None

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# ## The `gradient` argument: how the loss depends on `y`
#
# Suppose `y` is not the end of the computation: some loss $L$ is computed from it later, in code
# you have not written yet. Backward cannot know $L$, but it needs only one thing from it: how
# much $L$ changes with each element of `y`, the vector $\partial L/\partial y$. Pass that as
# `gradient`, and backward applies the chain rule from there down to the leaves.
#
# Start small: $y = 2x$ for a leaf $x$ with two elements.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = 2 * x
y.backward(torch.tensor([1.0, 1.0]))
x.grad

# %% [markdown]
# `gradient=[1., 1.]` says: $L$ grows by 1 for a unit change of either $y_1$ or $y_2$, as
# $L = y_1 + y_2$ would. Each $y_i$ is $2x_i$, so each $x_i$ moves $L$ twice as fast: `[2., 2.]`.
#
# <details><summary>With <code>gradient=torch.tensor([3., -1.])</code>, what will
# <code>x.grad</code> be? Click to reveal</summary>
#
# `tensor([ 6., -2.])`: now $L$ changes 3 times as fast as $y_1$ and $-1$ times as fast as $y_2$
# (think $L = 3y_1 - y_2$), and the chain rule multiplies each by $\partial y_i/\partial x_i = 2$.
# </details>

# %%
x.grad = None
y = 2 * x
y.backward(torch.tensor([3.0, -1.0]))
x.grad

# %% [markdown]
# Writing that loss down gives the same gradient: `gradient=v` is the backward of
# $L = \sum_i v_i y_i$, a weighted sum of the elements of `y`.

# %%
v = torch.tensor([3.0, -1.0])
x_written = torch.tensor([1.0, 2.0], requires_grad=True)
(v * (2 * x_written)).sum().backward()
print(x_written.grad)
assert torch.equal(x_written.grad, x.grad)

# %% [markdown]
# ## What backward really computes
#
# For a vector $y$ with $m$ elements and a leaf $x$ with $n$ elements, the full derivative is an
# $m \times n$ matrix, the **Jacobian** $J_{ij} = \partial y_i / \partial x_j$. Backward never
# builds that matrix (for a model with a million weights it would be huge). Instead it takes the
# vector $v = \partial L/\partial y$ of the section above, one entry per element of $y$, and
# computes
#
# $$ v^\top J, \qquad \text{that is} \qquad \textstyle\sum_i v_i\, \partial y_i / \partial x_j
# \text{ for each } x_j, $$
#
# which is $\partial L/\partial x$ by the chain rule, with the shape of $x$, just what `.grad` can
# hold. This is the *vector-Jacobian product*,
# and $v$ is the `gradient` argument of `y.backward(gradient=v)`. For a scalar output, $v$ is
# simply 1: that is the gradient "implicitly created" in the error message.
#
# Here $y_i = x_i^2$ with $x = (1, 2, 3)$, and $v$ is all ones.
#
# <details><summary>What will <code>x.grad</code> print? Click to reveal</summary>
#
# `tensor([2., 4., 6.])`. $J$ is diagonal with $2x_i$ on the diagonal. With $v$ all ones,
# $v^\top J$ adds up the rows of $J$: entry $j$ is the sum of column $j$, here just $2x_j$.
# </details>

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
y.backward(gradient=torch.ones(3))
x.grad

# %%
assert torch.equal(x.grad, 2 * x.detach())

# %% [markdown]
# Weighting every element of $y$ by 1 is the same as adding them up first:
# `y.backward(gradient=torch.ones_like(y))` and `y.sum().backward()` give the same `.grad`.
# That is why losses end with a `.sum()` or `.mean()`: it makes them single numbers.

# %%
x_again = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x_again**2).sum().backward()
assert torch.equal(x_again.grad, x.grad)

# %% [markdown]
# The `gradient` must have the shape of the output, one weight per element:

# %%
try:
    (x**2).backward(gradient=torch.ones(2))
except RuntimeError as error:
    print(error)

# %% [markdown]
# ## Your turn: the Jacobian, one row at a time
#
# A one-hot $v$ (a 1 in position $i$, zeros elsewhere) picks row $i$ of $J$: the gradient of
# $y_i$ alone. Doing that for every $i$ rebuilds the whole Jacobian. Write `jacobian(y, x)` for a
# vector `y` computed from a vector leaf `x`, one backward pass through `y` per row. Two things
# to watch: what a second backward does to `x.grad` (notebook 03), and that a backward frees
# the graph unless `retain_graph=True` keeps it for the next pass (notebook 09 says why).
# `torch.stack(rows)` makes a matrix of a list of rows. PyTorch packages this loop as
# `torch.autograd.functional.jacobian`: write it out instead, to see what that does.

# %% tags=["build"]
def jacobian(y, x):
    """J[i, j] = d y_i / d x_j, one backward pass per element of y."""
    ### BEGIN SOLUTION
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        x.grad = None
        y.backward(gradient=one_hot, retain_graph=True)
        rows.append(x.grad)
    x.grad = None
    return torch.stack(rows)
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import non_scalar_outputs as check

check.jacobian_rows(jacobian)

# %% [markdown]
# Yours, on $y = x^2$:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
J = jacobian(y, x)
J

# %%
assert torch.equal(J, torch.eye(3) * 2 * x.detach())

# %% [markdown]
# Any other $v$ weights the rows. `backward(gradient=v)` gives exactly $v^\top J$, computed without
# ever forming $J$:

# %%
v = torch.tensor([1.0, 0.5, 0.0])
x.grad = None
(x**2).backward(gradient=v)
print("backward(gradient=v):", x.grad)
print("v @ J:               ", v @ J)

# %%
assert torch.allclose(x.grad, v @ J)

# %% [markdown]
# A picture of $J$ makes its structure plain: each output element depends on one input only.

# %%
def show_jacobian(ax, J, title):
    """J as a grid of coloured cells, each labelled with its value."""
    values = J.tolist()
    largest = max(max(row) for row in values)
    ax.imshow(values, cmap="Blues", vmin=0)
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            colour = "white" if value > largest / 2 else "black"  # readable on dark cells
            ax.text(j, i, f"{value:.4f}", ha="center", va="center", color=colour)
    ax.set_xticks(range(len(values[0])), [f"x[{j}]" for j in range(len(values[0]))])
    ax.set_yticks(range(len(values)), [f"y[{i}]" for i in range(len(values))])
    ax.set_title(title)


fig, ax = plt.subplots(figsize=(3.5, 3.5))
show_jacobian(ax, J, "J of y = x**2")
plt.show()

# %% [markdown]
# ## Summary
#
# - `backward()` with no argument works only for a single-element output; otherwise: *grad can
#   be implicitly created only for scalar outputs*.
# - `y.backward(gradient=v)` computes the vector-Jacobian product $v^\top J$ into each leaf's
#   `.grad`, without building $J$. `v` must have `y`'s shape.
# - With `v` all ones it equals `y.sum().backward()`. One-hot `v`'s read $J$ row by row, as
#   your `jacobian` does (`torch.autograd.functional.jacobian` packages it).
#
# One pass per row, that is per output, is what suits training: a loss is one number, one row,
# so its gradient for every weight comes from a single backward pass. Autograd can also run the
# other way, one column (one input) per pass: forward mode, the course's last notebook (17).
#
# Exercises: [exercises/ex05_non_scalar_outputs.ipynb](../exercises/ex05_non_scalar_outputs.ipynb).
# Next: [06 · Gradients of intermediates](06_retain_grad.ipynb).
