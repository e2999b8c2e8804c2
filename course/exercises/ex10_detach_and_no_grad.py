# %% [markdown]
# # Exercises 10 · Stopping gradients
#
# Companion to [notebook 10](../notebooks/10_detach_and_no_grad.ipynb): `detach()`,
# `torch.no_grad()` and `requires_grad_()`. Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers, `None`, `True`/`False`, or `"error"` when a line raises before the
# print.

# %%
import minigrad as torch
from minigrad_course.checks import detach_and_no_grad as check


# %% [markdown]
# ## 1 · Fix the bug: a target that should not move
#
# In temporal-difference learning the loss compares a prediction with a *target* that is computed
# from the same weights but must be treated as a constant: gradients should only improve the
# prediction. This version lets gradients flow through the target too:

# %%
def td_loss(w, x, reward):
    prediction = (w * x).sum()
    target = reward + 0.9 * (w * x * 2).sum()
    return (prediction - target) ** 2


w = torch.tensor([0.5, -1.0], requires_grad=True)
td_loss(w, torch.tensor([1.0, 2.0]), 1.0).backward()
print(w.grad)


# %% [markdown]
# Write the fixed `td_loss` below: same loss value, but no gradient through the target.

# %% grade_id="10-td"
### BEGIN SOLUTION
def td_loss(w, x, reward):
    prediction = (w * x).sum()
    target = reward + 0.9 * (w * x * 2).sum().detach()  # a constant as far as backward goes
    return (prediction - target) ** 2
### END SOLUTION


# %%
check.td_loss(td_loss)


# %% [markdown]
# ## 2 · Write it: a copy that is really separate
#
# Write `frozen_copy(t)` that returns a tensor with `t`'s values that has no history (so it does
# not require grad) and shares nothing with `t`: changing the copy in place must leave `t`, and
# `t`'s version counter, alone.

# %% grade_id="10-frozen"
def frozen_copy(t):
    ### BEGIN SOLUTION
    return t.detach().clone()  # detach: no history; clone: new memory and version counter
    ### END SOLUTION


# %%
check.frozen_copy(frozen_copy)

# %% [markdown]
# ## 3 · Predict: what is recorded, what is frozen
#
# ```python
# w = torch.tensor([1.0, 2.0], requires_grad=True)
# b = torch.tensor(0.5, requires_grad=True)
# with torch.no_grad():
#     scaled = w * 2
# print(scaled.requires_grad)
# b.requires_grad_(False)
# loss = (scaled * w + b).sum()
# loss.backward()
# print(w.grad)
# print(b.grad)
# ```
#
# Set `recorded_prints` to the three values it prints.

# %% grade_id="10-recorded"
### BEGIN SOLUTION
recorded_prints = [False, [2.0, 4.0], None]
### END SOLUTION

# %%
check.recorded(recorded_prints)

# %% [markdown]
# ## Summary
#
# - `detach()` cuts a value out of the graph (sharing memory); add `clone()` for a separate copy.
# - The target of a loss is often such a value: computed from the weights, held constant.
# - `torch.no_grad()` records nothing in its block; `requires_grad_(False)` freezes a leaf.
#
# Next: [exercises 11](ex11_inside_the_engine.ipynb).
