# %% [markdown]
# # Exercises 05 · Non-scalar outputs and vector-Jacobian products
#
# Companion to [notebook 05](../notebooks/05_non_scalar_outputs.ipynb). Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.
#
# Predictions are numbers (a list of numbers for a tensor with several), `None`, or `"error"`.

# %%
import minigrad as torch
from minigrad_course.checks import non_scalar_outputs as check

# %% [markdown]
# ## 1 · Predict: the `gradient` argument, and `mean()`
#
# ```python
# x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
# y = x ** 3
# y.backward(torch.tensor([1.0, 2.0, 0.5]))
# print(x.grad)
# ```
#
# ```python
# x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
# y = x ** 3
# y.mean().backward()
# print(x.grad)
# ```
#
# Set `weighted_prints` to what the two programs print, in this order.

# %% grade_id="05-weighted"
### BEGIN SOLUTION
weighted_prints = [[3.0, 6.0, 6.0], [1.0, 1.0, 4.0]]
### END SOLUTION

# %%
check.weighted(weighted_prints)


# %% [markdown]
# ## 2 · Fix the bug: a loss that is not a number
#
# `mse_gradient` should return the gradient of the mean squared error of the model `xs @ w`.
# It stops with an error instead:

# %%
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward()
    return w.grad

w = torch.tensor([0.5, 0.5], requires_grad=True)
xs = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
ys = torch.tensor([1.0, 2.0, 3.0])
try:
    mse_gradient(w, xs, ys)
except RuntimeError as error:
    print("RuntimeError:", error)


# %% [markdown]
# Write the fixed `mse_gradient` below. Passing `gradient=torch.ones_like(errors)` would make
# the error go away, but would it compute the gradient of the *mean*?

# %% grade_id="05-mse"
### BEGIN SOLUTION
def mse_gradient(w, xs, ys):
    loss = ((xs @ w - ys) ** 2).mean()  # one number: backward() can start from 1
    loss.backward()
    return w.grad
### END SOLUTION


# %%
check.mse_gradient(mse_gradient)


# %% [markdown]
# ## 3 · Write it: a Jacobian for tensors of any shape
#
# Notebook 05's `jacobian(y, x)` took vectors. PyTorch's `torch.autograd.functional.jacobian`
# takes a function and a tensor of any shape: for `y = f(x)` it returns `J` of shape
# `y.shape + x.shape`, whose entry at an index of `y` followed by an index of `x` is the
# derivative of that element of `y` with respect to that element of `x`. For a 2 × 3 matrix
# `x` and `y = x ** 2`, `J` has shape `(2, 3, 2, 3)`; for a single number `y`, `x`'s shape.
#
# Write `jacobian(f, x)` that returns that tensor, one `backward()` through `f`'s graph per
# element of `y`, without calling PyTorch's. What shape must the gradient argument of each
# pass have, and what shape is each pass's `x.grad`? `torch.stack(rows)` makes one tensor of
# a list of rows, and `reshape` gives it the shape asked.

# %% grade_id="05-jacobian"
def jacobian(f, x):
    ### BEGIN SOLUTION
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        x.grad = None  # each row starts from an empty .grad
        y.backward(one_hot.reshape(y.shape), retain_graph=True)  # a gradient of y's shape
        rows.append(x.grad)
    return torch.stack(rows).reshape(y.shape + x.shape)
    ### END SOLUTION


# %%
check.jacobian(jacobian)


# %% [markdown]
# ## 4 · Write it: a vector-Jacobian product by hand
#
# For `y = torch.tanh(W @ x)`, `y.backward(v)` leaves `v @ J` in `x.grad`. Write
# `vjp_tanh(W, x, v)` that computes the same vector **without** calling `backward()`, applying
# the chain rule yourself with tensor operations. Work from the output back: what does `v`
# become after passing back through `tanh` (whose derivative is `1 - tanh²`), and then through
# `W @ x`?

# %% grade_id="05-vjp"
def vjp_tanh(W, x, v):
    ### BEGIN SOLUTION
    y = torch.tanh(W @ x)
    through_tanh = v * (1 - y ** 2)  # elementwise: tanh acts on each output separately
    return through_tanh @ W  # a row vector times W: v @ J for the linear map
    ### END SOLUTION


# %%
check.vjp_by_hand(vjp_tanh)
### BEGIN HIDDEN TESTS
check.vjp_other_shapes(vjp_tanh)
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - `backward()` needs a starting gradient; it makes one up (a 1) only for a single number.
# - `y.backward(v)` computes the vector-Jacobian product `v @ J`, one entry per input.
# - One-hot gradients of `y`'s shape pick out the Jacobian one element of `y` at a time;
#   reset `.grad` between them.
#
# Next: [exercises 06](ex06_retain_grad.ipynb).
