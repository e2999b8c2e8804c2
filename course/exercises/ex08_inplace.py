# %% [markdown]
# # Exercises 08 · In-place operations and version counters
#
# Companion to [notebook 08](../notebooks/08_inplace.ipynb). Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers (a list of numbers for a tensor with several), `None`, or `"error"`
# when a line raises before the print.

# %%
import minigrad as torch
from minigrad_course.checks import inplace as check

# %% [markdown]
# ## 1 · Predict: which in-place changes are errors?
#
# **A**
# ```python
# w = torch.tensor([1.0, 2.0], requires_grad=True)
# w += 1
# print(w)
# ```
#
# **B**
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = x.tanh()
# y.mul_(2)
# y.sum().backward()
# print(x.grad)
# ```
#
# **C**
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = x / 2
# y.add_(1)
# y.sum().backward()
# print(x.grad)
# ```
#
# **D**
# ```python
# x = torch.tensor([1.0, 4.0], requires_grad=True)
# h = x * 1
# r = h.sqrt()
# h.mul_(4)
# r.sum().backward()
# print(x.grad)
# ```
#
# Two operations the notebook's table left out: `tanh` and `sqrt` save their output, as `exp`
# does, since their derivatives, $1 - \tanh^2$ and $1 / (2\sqrt{h})$, are made of it.
#
# Set `inplace_outcomes` to your four predictions, in the order A, B, C, D.

# %% grade_id="08-which-raise"
### BEGIN SOLUTION
inplace_outcomes = ["error", "error", [0.5, 0.5], [0.5, 0.25]]
### END SOLUTION

# %%
check.which_raise(inplace_outcomes)

# %% [markdown]
# ## 2 · Predict: counting versions
#
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = x * 2
# print(y._version)
# y.add_(1)
# y[0] = 0.0
# print(y._version)
# ```
#
# Set `version_prints` to the two numbers it prints.

# %% grade_id="08-versions"
### BEGIN SOLUTION
version_prints = [0, 2]
### END SOLUTION

# %%
check.versions(version_prints)

# %% [markdown]
# ## 3 · Predict: a tensor built by element assignment
#
# ```python
# x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# y = torch.zeros(3, 1)
# y[0] = x[0] * x[1]
# y[1] = x[1] ** 2
# y[2] = x[2] * 3
# y.backward(gradient=torch.ones(y.size()))
# print(x.grad)
# ```
#
# Each assignment writes into `y` in place. Set `item_grad` to what it prints.

# %% grade_id="08-item-assignment"
### BEGIN SOLUTION
item_grad = [2.0, 5.0, 3.0]
### END SOLUTION

# %%
check.item_assignment(item_grad)

# %% [markdown]
# ## 4 · Predict: `.data` versus `detach()`
#
# Both give a tensor that shares `y`'s values without its history. Do they behave the same?
#
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = x.sigmoid()
# y.data.fill_(0.5)
# y.sum().backward()
# print(x.grad)
# ```
#
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = x.sigmoid()
# y.detach().fill_(0.5)
# y.sum().backward()
# print(x.grad)
# ```
#
# Set `data_detach_prints` to what the two programs print, in this order.

# %% grade_id="08-data-detach"
### BEGIN SOLUTION
data_detach_prints = [[0.25, 0.25], "error"]
### END SOLUTION

# %%
check.data_versus_detach(data_detach_prints)


# %% [markdown]
# ## 5 · Fix the bug: an in-place division that breaks backward
#
# `normalized_loss` squashes `x` with a sigmoid, rescales the result to sum to 1 and sums its
# squares. The forward pass works; `backward()` does not:

# %%
def normalized_loss(x):
    y = torch.sigmoid(x)
    y /= y.sum()
    return (y ** 2).sum()


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
loss = normalized_loss(x)
print(loss)
try:
    loss.backward()
except RuntimeError as error:
    print("RuntimeError:", str(error).split(" Hint:")[0])


# %% [markdown]
# Write the fixed `normalized_loss` below: same value, and a working `backward()`.

# %% grade_id="08-normalized"
### BEGIN SOLUTION
def normalized_loss(x):
    y = torch.sigmoid(x)
    y = y / y.sum()  # a new tensor: sigmoid's saved output stays as it was
    return (y ** 2).sum()
### END SOLUTION


# %%
check.normalized_loss(normalized_loss)


# %% [markdown]
# ## 6 · Write it: count in-place changes
#
# When a library function might change your tensor behind your back, the version counter can
# tell. Write `count_inplace(fn, t)` that calls `fn(t)` and returns how many in-place changes it
# made to `t`: changes through a view of `t` (a slice, an element) count, changes to a separate
# copy do not.

# %% grade_id="08-count"
def count_inplace(fn, t):
    ### BEGIN SOLUTION
    before = t._version  # shared with every view of t
    fn(t)
    return t._version - before
    ### END SOLUTION


# %%
check.count_inplace(count_inplace)

# %% [markdown]
# ## Summary
#
# - Changing a leaf that requires grad in place is an error; so is changing any tensor that a
#   backward step saved, once backward needs it.
# - `_version` counts in-place changes, views included; a saved tensor remembers its version.
# - An element assignment (`y[0] = ...`) is an in-place change too: it puts `y` in the graph
#   (`CopySlices`), and an input feeding several elements collects all their gradients.
# - `.data` hides changes from that check (and gives wrong gradients); `detach()` does not.
#
# Next: [exercises 09](ex09_graphs_used_again.ipynb).
