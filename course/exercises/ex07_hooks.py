# %% [markdown]
# # Exercises 07 · Hooks
#
# Companion to [notebook 07](../notebooks/07_hooks.ipynb). Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers (a list of numbers for a tensor with several), `None`, `True`/`False`,
# or `"error"`.

# %%
import minigrad as torch
from minigrad_course.checks import hooks as check

# %% [markdown]
# ## 1 · Predict: a hook that changes the gradient
#
# ```python
# x = torch.tensor(2.0, requires_grad=True)
# h = x ** 2
# h.register_hook(lambda grad: grad + 1)
# y = h * 5
# y.backward()
# print(x.grad)
# ```
#
# Set `hooked_grad` to what it prints.

# %% grade_id="07-hook"
### BEGIN SOLUTION
hooked_grad = 24.0
### END SOLUTION

# %%
check.hook_changes_gradient(hooked_grad)


# %% [markdown]
# ## 2 · Write it: watch gradients flow past, with hooks
#
# `retain_grad()` changes the tensor it is called on. A hook need not: one that returns
# `None` only looks (one that returns a tensor replaces the gradient, as in exercise 3). Write
# `watch(tensors)`: `tensors` is a dict from names to tensors (leaves or intermediates, all
# requiring grad). Register one hook per tensor and return a dict that is empty now and that,
# after the next `backward()`, maps each name to the gradient that reached that tensor. The hooks
# must not change any gradient (a hook that returns `None` leaves it as it is).
#
# Careful with `lambda` in a loop: every lambda sees the loop variable's *last* value unless you
# bind it, for example as a default argument (`lambda grad, name=name: ...`).

# %% grade_id="07-watch"
def watch(tensors):
    ### BEGIN SOLUTION
    seen = {}
    for name, tensor in tensors.items():
        def remember(grad, name=name):  # name bound now, not when the hook runs
            seen[name] = grad
        tensor.register_hook(remember)
    return seen
    ### END SOLUTION


# %%
check.watch(watch)


# %% [markdown]
# ## 3 · Write it: clip a gradient in flight
#
# A hook that returns a tensor replaces the gradient, and everything upstream sees the new one.
# Write `clip_gradient(t, max_norm)` that registers a hook on `t` so that a gradient whose
# Euclidean norm (the square root of the sum of its squared entries) exceeds `max_norm` is scaled
# down to norm `max_norm`, and a smaller one passes unchanged.

# %% grade_id="07-clip"
def clip_gradient(t, max_norm):
    ### BEGIN SOLUTION
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        if norm > max_norm:
            return grad * (max_norm / norm)
        return None  # unchanged
    t.register_hook(clip)
    ### END SOLUTION


# %%
check.clip(clip_gradient)

# %% [markdown]
# ## Summary
#
# - Hooks see each gradient as it flows; returning a tensor replaces it for everything upstream.
# - Bind loop variables when you create hooks in a loop.
#
# Next: [exercises 08](ex08_inplace.ipynb).
