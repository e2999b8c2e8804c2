# %% [markdown]
# # Exercises 09 · Using a graph again
#
# Companion to [notebook 09](../notebooks/09_graphs_used_again.ipynb): `retain_graph` and
# `torch.autograd.grad`. Replace each
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
# ## 2 · Predict: naming the inputs
#
# ```python
# a = torch.tensor(2.0, requires_grad=True)
# b = torch.tensor(5.0, requires_grad=True)
# loss = a * b + b
# loss.backward(inputs=[a], retain_graph=True)
# print(a.grad)
# print(b.grad)
# loss.backward(inputs=[b])
# print(a.grad)
# print(b.grad)
# ```
#
# Set `inputs_prints` to the four values it prints.

# %% grade_id="09-inputs"
### BEGIN SOLUTION
inputs_prints = [5.0, None, 5.0, 3.0]
### END SOLUTION

# %%
check.named_inputs(inputs_prints)


# %% [markdown]
# ## 3 · Write it: gradients in the middle of a graph
#
# `.grad` is kept for leaves only (an intermediate needs `retain_grad()`, notebook 06), but
# `torch.autograd.grad` accepts any tensor of the graph as an input. Write
# `gradients_at(loss, tensors)`: `tensors` is a dict from names to tensors that `loss` was
# computed from, leaves or intermediates; return a dict from the same names to the gradient of
# `loss` with respect to each, from a single `autograd.grad` call. Leave every `.grad` as it
# is, and do not call `retain_grad()`.

# %% grade_id="09-at"
def gradients_at(loss, tensors):
    ### BEGIN SOLUTION
    names = list(tensors)
    gradients = torch.autograd.grad(loss, [tensors[name] for name in names])
    return dict(zip(names, gradients))
    ### END SOLUTION


# %%
check.gradients_at(gradients_at)

# %% [markdown]
# ## Summary
#
# - `backward()` frees what the graph saved; `retain_graph=True` keeps it for another pass.
# - `torch.autograd.grad` returns gradients instead of adding them to `.grad`, for
#   intermediates as well as leaves, all from one pass.
# - `backward(inputs=[...])` fills the `.grad` of the tensors named, and only theirs.
#
# Next: [exercises 10](ex10_detach_and_no_grad.ipynb).
