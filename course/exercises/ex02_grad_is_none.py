# %% [markdown]
# # Exercises 02 · `.grad` is `None` until `backward()` fills it
#
# Companion to [notebook 02](../notebooks/02_grad_is_none.ipynb). Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# For a predict-the-output exercise, read the code in the box without running it. Write each
# prediction as a number (or a list of numbers for a tensor with several), `None`, or the string
# `"error"` when that line raises instead of printing.

# %%
import minigrad as torch
from minigrad_course.checks import grad_is_none as check

# %% [markdown]
# ## 1 · Predict: before and after `backward()`
#
# ```python
# w = torch.tensor(2.0, requires_grad=True)
# x = torch.tensor(5.0)
# b = torch.tensor(1.0, requires_grad=True)
# y = w * x + b
# print(w.grad)
# y.backward()
# print(w.grad)
# print(x.grad)
# print(b.grad)
# ```
#
# Set `before_after` to the list of the four things it prints.

# %% grade_id="02-before-after"
### BEGIN SOLUTION
before_after = [None, 5.0, None, 1.0]
### END SOLUTION

# %%
check.before_and_after(before_after)

# %% [markdown]
# ## 2 · Predict: four small programs
#
# Each box ends with `print(x.grad)`. What does it show, or does a line before it raise?
#
# **A**
# ```python
# x = torch.tensor(3.0, requires_grad=True)
# y = x ** 2
# y.backward()
# print(x.grad)
# ```
#
# **B**
# ```python
# x = torch.tensor(3.0)
# y = x ** 2
# x.requires_grad_()
# y.backward()
# print(x.grad)
# ```
#
# **C**
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = x.sum() * 0
# y.backward()
# print(x.grad)
# ```
#
# **D**
# ```python
# x = torch.tensor(3, requires_grad=True)
# y = x ** 2
# y.backward()
# print(x.grad)
# ```
#
# Set `outcomes` to your four predictions, in the order A, B, C, D.

# %% grade_id="02-outcomes"
### BEGIN SOLUTION
outcomes = [6.0, "error", [0.0, 0.0], "error"]
### END SOLUTION

# %%
check.outcomes(outcomes)


# %% [markdown]
# ## 3 · Fix the bug: weights that never get a gradient
#
# This helper makes small random starting weights. Training with it goes nowhere: after
# `backward()`, `w.grad` is `None`. The cell shows why.

# %%
def init_weights(n):
    torch.manual_seed(0)
    return torch.randn(n, requires_grad=True) * 0.01

w = init_weights(3)
print(w.is_leaf, w.grad_fn)


# %% [markdown]
# Write a fixed `init_weights(n)` below: same seed, same values (`randn` scaled by 0.01), but a
# tensor whose `.grad` a `backward()` will fill.

# %% grade_id="02-init"
### BEGIN SOLUTION
def init_weights(n):
    torch.manual_seed(0)
    return (torch.randn(n) * 0.01).requires_grad_()
### END SOLUTION


# %%
check.init_weights(init_weights)


# %% [markdown]
# ## 4 · Write it: will this tensor get a `.grad`?
#
# Write `will_get_grad(t)`: return `True` when calling `backward()` on a result computed from
# `t` will fill `t.grad`, and `False` when `t.grad` stays `None`. Decide from `t`'s attributes
# alone, without calling `backward()`. (The check builds tensors of every kind, then compares your
# answer with what `backward()` really does.)

# %% grade_id="02-who"
def will_get_grad(t):
    ### BEGIN SOLUTION
    return t.is_leaf and t.requires_grad
    ### END SOLUTION


# %%
check.will_get_grad(will_get_grad)

# %% [markdown]
# ## Summary
#
# - `.grad` starts as `None`; `backward()` fills it for leaves that require grad, nothing else.
# - A tensor scaled after `requires_grad=True` is a result, not a leaf: scale first.
# - A gradient of zero is a tensor of zeros, not `None`; integer tensors cannot require grad.
#
# Next: [exercises 03](ex03_accumulation.ipynb).
