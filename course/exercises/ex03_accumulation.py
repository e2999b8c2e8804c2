# %% [markdown]
# # Exercises 03 · Gradients accumulate
#
# Companion to [notebook 03](../notebooks/03_accumulation.ipynb). Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers (a list of numbers for a tensor with several), `None`, or `"error"`.

# %%
import minigrad as torch
from minigrad_course.checks import accumulation as check

# %% [markdown]
# ## 1 · Predict: two backward calls, in both orders
#
# ```python
# x = torch.tensor(2.0, requires_grad=True)
# y = x ** 2
# z = x ** 3
# y.backward()
# print(x.grad)
# z.backward()
# print(x.grad)
# ```
#
# and the same with the two calls swapped:
#
# ```python
# x = torch.tensor(2.0, requires_grad=True)
# y = x ** 2
# z = x ** 3
# z.backward()
# print(x.grad)
# y.backward()
# print(x.grad)
# ```
#
# Set `both_orders` to the four printed values: the two of the first program, then the two of
# the second.

# %% grade_id="03-both-orders"
### BEGIN SOLUTION
both_orders = [4.0, 16.0, 12.0, 16.0]
### END SOLUTION

# %%
check.both_orders(both_orders)

# %% [markdown]
# ## 2 · Predict: a loop that never resets
#
# ```python
# x = torch.ones(2, requires_grad=True)
# for step in range(4):
#     loss = (x * 3).sum()
#     loss.backward()
# print(x.grad)
# ```
#
# Set `after_loop` to what it prints.

# %% grade_id="03-loop"
### BEGIN SOLUTION
after_loop = [12.0, 12.0]
### END SOLUTION

# %%
check.loop(after_loop)


# %% [markdown]
# ## 3 · Fix the bug: two gradients that are both wrong
#
# This function is meant to return the gradient of `loss_a` and the gradient of `loss_b`, each on
# its own. It prints the same wrong tensor twice.

# %%
def gradients_of_two_losses(w):
    loss_a = (w * 2).sum()
    loss_a.backward()
    grad_a = w.grad
    loss_b = (w ** 2).sum()
    loss_b.backward()
    grad_b = w.grad
    return grad_a, grad_b

w = torch.tensor([1.0, -1.0, 3.0], requires_grad=True)
grad_a, grad_b = gradients_of_two_losses(w)
print(grad_a)
print(grad_b)


# %% [markdown]
# The right answers are `tensor([2., 2., 2.])` (the derivative of `2w`) and `2w`, that is
# `tensor([ 2., -2.,  6.])`. There are two problems: find both. Write the fixed function below.

# %% grade_id="03-two-losses"
### BEGIN SOLUTION
def gradients_of_two_losses(w):
    loss_a = (w * 2).sum()
    loss_a.backward()
    grad_a = w.grad.clone()  # a copy: the next backward adds into w.grad in place
    w.grad = None  # start loss_b from an empty .grad
    loss_b = (w ** 2).sum()
    loss_b.backward()
    grad_b = w.grad
    return grad_a, grad_b
### END SOLUTION


# %%
check.two_losses(gradients_of_two_losses)


# %% [markdown]
# ## 4 · Write it: gradient accumulation over micro-batches
#
# When a batch is too big to fit in memory at once, training splits it into micro-batches, runs
# `backward()` on each, and lets `.grad` add the pieces up. Done right, the sum is exactly the
# gradient of the whole batch.
#
# Write `accumulate_gradient(w, inputs, targets, micro_batch_size)`. The model is `inputs @ w`;
# the loss is the mean squared error over the **whole** batch,
# `((inputs @ w - targets) ** 2).mean()`. Fill `w.grad` (it starts as `None`) with the gradient
# of that loss, calling `backward()` once per micro-batch of `micro_batch_size` rows. The last
# micro-batch may be smaller when the sizes do not divide evenly. Return nothing.

# %% grade_id="03-micro-batches"
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    ### BEGIN SOLUTION
    n = len(inputs)
    for start in range(0, n, micro_batch_size):
        batch = inputs[start:start + micro_batch_size]
        wanted = targets[start:start + micro_batch_size]
        # Divide by the whole batch's size, not the micro-batch's: the pieces then add up
        # to the mean over the whole batch, even when the last piece is smaller.
        loss = ((batch @ w - wanted) ** 2).sum() / n
        loss.backward()
    ### END SOLUTION


# %%
check.micro_batches(accumulate_gradient)
### BEGIN HIDDEN TESTS
check.micro_batches_uneven(accumulate_gradient)
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - Every `backward()` adds into `.grad`; the order of the calls does not matter.
# - `w.grad` is one tensor updated in place: keep a `.clone()` if you need an old value.
# - Accumulation is what makes micro-batching exact: scale each piece by the whole batch.
#
# Next: [exercises 04](ex04_resetting_gradients.ipynb).
