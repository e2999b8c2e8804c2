# %% [markdown]
# # Exercises 04 · Resetting gradients
#
# Companion to [notebook 04](../notebooks/04_resetting_gradients.ipynb). Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers (a list of numbers for a tensor with several), `None`, or `"error"`.

# %%
import minigrad as torch
from minigrad_course.checks import resetting_gradients as check

# %% [markdown]
# ## 1 · Predict: `zero_grad()` with and without `set_to_none`
#
# ```python
# w = torch.tensor([1.0, 2.0], requires_grad=True)
# opt = torch.optim.SGD([w], lr=0.1)
# (w ** 2).sum().backward()
# opt.zero_grad(set_to_none=False)
# print(w.grad)
# (w * 3).sum().backward()
# print(w.grad)
# opt.zero_grad()
# print(w.grad)
# ```
#
# Set `zero_grad_prints` to the three things it prints.

# %% grade_id="04-zero-grad"
### BEGIN SOLUTION
zero_grad_prints = [[0.0, 0.0], [3.0, 3.0], None]
### END SOLUTION

# %%
check.zero_grad(zero_grad_prints)

# %% [markdown]
# ## 2 · Predict: a reference kept across a reset
#
# ```python
# x = torch.tensor(1.0, requires_grad=True)
# (x * 5).backward()
# saved = x.grad
# x.grad.zero_()
# (x * 2).backward()
# print(saved)
# ```
#
# and the same program resetting with `None` instead:
#
# ```python
# x = torch.tensor(1.0, requires_grad=True)
# (x * 5).backward()
# saved = x.grad
# x.grad = None
# (x * 2).backward()
# print(saved)
# ```
#
# Set `saved_prints` to what the two programs print, in this order.

# %% grade_id="04-kept"
### BEGIN SOLUTION
saved_prints = [2.0, 5.0]
### END SOLUTION

# %%
check.kept_reference(saved_prints)


# %% [markdown]
# ## 3 · Fix the bug: a training loop that forgets to zero
#
# This loop fits a line `y = w·x + b` to points on `y = 3x + 1` by gradient descent. Its loss
# goes down at first, then wanders: the fit never settles.

# %%
def fit(steps=100, lr=0.1):
    xs = torch.linspace(-1, 1, 20)
    ys = 3 * xs + 1
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    losses = []
    for step in range(steps):
        loss = ((w * xs + b - ys) ** 2).mean()
        loss.backward()
        with torch.no_grad():  # an update, not part of the model: nothing to record
            w -= lr * w.grad
            b -= lr * b.grad
        losses.append(loss.item())
    return w, b, losses

w, b, losses = fit()
print(f"loss after 10 steps: {losses[9]:.4f}, after 100: {losses[-1]:.4f}")


# %% [markdown]
# Write the fixed `fit` below (same arguments, same return value).

# %% grade_id="04-fit"
### BEGIN SOLUTION
def fit(steps=100, lr=0.1):
    xs = torch.linspace(-1, 1, 20)
    ys = 3 * xs + 1
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    losses = []
    for step in range(steps):
        loss = ((w * xs + b - ys) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = None  # the next step must see its own gradient only
        b.grad = None
        losses.append(loss.item())
    return w, b, losses
### END SOLUTION


# %%
check.fit(fit)


# %% [markdown]
# ## 4 · Write it: one SGD step under `no_grad()`
#
# Write `sgd_step(params, lr)`, what `torch.optim.SGD`'s `step()` followed by `zero_grad()`
# does, with no optimizer: move every parameter that has a gradient by `-lr * p.grad`,
# **in place** (the caller keeps references to these tensors), without recording the update in
# any graph; then set every `.grad` to `None`. A parameter whose `.grad` is `None` stays as it
# is.

# %% grade_id="04-sgd-step"
def sgd_step(params, lr):
    ### BEGIN SOLUTION
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
    for p in params:
        p.grad = None
    ### END SOLUTION


# %%
check.sgd_step(sgd_step)
### BEGIN HIDDEN TESTS
check.sgd_step(sgd_step, lr=0.5)
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - `zero_()` keeps the tensor and fills it with zeros; `= None` drops it. `zero_grad()` drops it
#   unless you pass `set_to_none=False`.
# - A training loop must reset gradients once per step, or each update uses the sum of all past
#   gradients.
# - Updates happen in place and under `no_grad()`: parameters stay the same leaves.
#
# Next: [exercises 05](ex05_non_scalar_outputs.ipynb).
