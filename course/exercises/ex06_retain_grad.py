# %% [markdown]
# # Exercises 06 · An intermediate's `.grad` and `retain_grad()`
#
# Companion to [notebook 06](../notebooks/06_retain_grad.ipynb). Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers (a list of numbers for a tensor with several), `None`, `True`/`False`,
# or `"error"`.

# %%
import minigrad as torch
from minigrad_course.checks import retain_grad as check

# %% [markdown]
# ## 1 · Predict: what `retain_grad()` keeps
#
# ```python
# x = torch.tensor(1.0, requires_grad=True)
# h = x + 2
# h.retain_grad()
# y = h * h * x
# y.backward()
# print(x.grad)
# print(h.grad)
# print(y.grad)
# print(h.is_leaf)
# ```
#
# Set `retained_prints` to the four things it prints. (Reading `y.grad` also shows a warning:
# PyTorch's way of saying you probably meant a leaf.)

# %% grade_id="06-retained"
### BEGIN SOLUTION
retained_prints = [15.0, 6.0, None, False]
### END SOLUTION

# %%
check.retained(retained_prints)

# %% [markdown]
# ## 2 · Predict: `retain_grad()` after `backward()`
#
# ```python
# x = torch.tensor(3.0, requires_grad=True)
# x.retain_grad()
# h = x * x
# y = h * 2
# y.backward()
# h.retain_grad()
# print(x.retains_grad)
# print(x.grad)
# print(h.retains_grad)
# print(h.grad)
# ```
#
# Set `late_prints` to the four things it prints.

# %% grade_id="06-late"
### BEGIN SOLUTION
late_prints = [False, 12.0, True, None]
### END SOLUTION

# %%
check.too_late(late_prints)

# %% [markdown]
# ## 3 · Fix the bug: the gradient of a hidden layer
#
# To see how strongly each hidden unit is pushed, this function returns the gradient of the
# output with respect to the hidden activations. It returns `None` (and warns):

# %%
import warnings


def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    out = (hidden @ w2).sum()
    out.backward()
    return hidden.grad


x = torch.ones(4, 3)
w1 = torch.ones(3, 5, requires_grad=True)
w2 = torch.ones(5, 1, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(hidden_gradient(x, w1, w2))
print(f"{len(caught)} warning: {str(caught[0].message)[:60]}...")


# %% [markdown]
# Write the fixed `hidden_gradient` below, with the same arguments and result.

# %% grade_id="06-hidden"
### BEGIN SOLUTION
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    hidden.retain_grad()  # before backward: ask the intermediate to keep its gradient
    out = (hidden @ w2).sum()
    out.backward()
    return hidden.grad
### END SOLUTION


# %%
check.hidden_gradient(hidden_gradient)

# %% [markdown]
# ## Summary
#
# - An intermediate's `.grad` stays `None` unless you call `retain_grad()` on it before
#   `backward()`. Called after, it marks the tensor (`retains_grad` is `True`), but only a
#   backward that runs after the call fills `.grad`.
# - On a leaf, `retain_grad()` changes nothing: a leaf keeps its gradient anyway.
#
# Next: [exercises 07](ex07_hooks.ipynb).
