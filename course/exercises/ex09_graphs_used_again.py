# %% [markdown]
# # Exercises 09 · Using a graph again
#
# Companion to [notebook 09](../notebooks/09_graphs_used_again.ipynb): `retain_graph`,
# `torch.autograd.grad` and `create_graph`. Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers, `None`, or `"error"` when a line raises before the print.

# %%
import minigrad as torch
from minigrad_course.checks import graphs_used_again as check

# %% [markdown]
# ## 1 · Predict: going backwards twice
#
# ```python
# x = torch.tensor(1.5, requires_grad=True)
# y = 4 * x ** 2
# y.backward(retain_graph=True)
# y.backward()
# print(x.grad)
# ```
#
# ```python
# x = torch.tensor(1.5, requires_grad=True)
# y = 4 * x ** 2
# y.backward()
# y.backward()
# print(x.grad)
# ```
#
# ```python
# x = torch.tensor(1.5, requires_grad=True)
# y = 4 * x ** 2
# (g,) = torch.autograd.grad(y, x)
# print(g)
# print(x.grad)
# ```
#
# Set `twice_prints` to the four predictions: one for each of the first two programs, then the
# two prints of the third.

# %% grade_id="09-twice"
### BEGIN SOLUTION
twice_prints = [24.0, "error", 12.0, None]
### END SOLUTION

# %%
check.twice(twice_prints)

# %% [markdown]
# ## 2 · Predict: a derivative of a derivative
#
# ```python
# x = torch.tensor(1.0, requires_grad=True)
# y = x ** 4
# (g,) = torch.autograd.grad(y, x, create_graph=True)
# print(g)
# (g2,) = torch.autograd.grad(g, x)
# print(g2)
# print(x.grad)
# ```
#
# Set `second_order_prints` to the three values it prints (for a tensor with a `grad_fn`, just
# its number).

# %% grade_id="09-second-order"
### BEGIN SOLUTION
second_order_prints = [4.0, 12.0, None]
### END SOLUTION

# %%
check.second_order(second_order_prints)


# %% [markdown]
# ## 3 · Write it: the second derivative
#
# Write `second_derivative(f, x)` that returns f''(x) for a function `f` of one scalar tensor and
# a leaf `x` that requires grad. Use `torch.autograd.grad` for both derivatives, so that `x.grad`
# stays `None`.

# %% grade_id="09-second"
def second_derivative(f, x):
    ### BEGIN SOLUTION
    (first,) = torch.autograd.grad(f(x), x, create_graph=True)  # a graph of the derivative
    (second,) = torch.autograd.grad(first, x)
    return second
    ### END SOLUTION


# %%
check.second_derivative(second_derivative)

# %% [markdown]
# ## Summary
#
# - `backward()` frees what the graph saved; `retain_graph=True` keeps it for another pass.
# - `torch.autograd.grad` returns gradients instead of adding them to `.grad`; with
#   `create_graph=True` they can be differentiated again.
#
# Next: [exercises 10](ex10_detach_and_no_grad.ipynb).
