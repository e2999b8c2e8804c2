# %% [markdown]
# # Exercises 12 · Your own operation
#
# Companion to [notebook 12](../notebooks/12_custom_functions.ipynb). Here you write operations
# of your own with `torch.autograd.Function`, and `gradcheck` judges their backward. Replace
# each `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.

# %%
import minigrad as torch
from minigrad_course.checks import custom_functions as check


# %% [markdown]
# ## 1 · Write it: a custom `Function`
#
# A `torch.autograd.Function` is how you add an operation of your own: a static
# `forward(ctx, ...)` that computes and saves what backward needs with
# `ctx.save_for_backward(...)`, and a static `backward(ctx, grad_output)` that returns the
# gradient for each input. Write `Cube`, with
# `Cube.apply(x)` computing `x ** 3`.

# %% grade_id="12-cube"
### BEGIN SOLUTION
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x ** 2  # chain rule: upstream gradient times d(x³)/dx
### END SOLUTION


# %%
check.cube(Cube)


# %% [markdown]
# ## 2 · Write it: the backward of `Mul` and `Pow`
#
# Write two `Function`s of your own, as minigrad writes its operations:
#
# - `Mul`, with `Mul.apply(a, b)` computing `a * b` for two tensors; its `backward` returns one
#   gradient per input of `forward`, the one for `a` first;
# - `Pow`, with `Pow.apply(x, n)` computing `x ** n` for a tensor `x` and a plain number `n`.
#   Keep `n` on `ctx` (`ctx.n = n`): `save_for_backward` is for tensors. A number gets no
#   gradient: return `None` in its place.
#
# The check runs `torch.autograd.gradcheck` on both, which compares your `backward` with finite
# differences in `float64`, as notebook 12 did for `Hypot`.

# %% grade_id="12-mul-pow"
### BEGIN SOLUTION
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return grad_output * b, grad_output * a  # each factor's gradient is the other factor


class Pow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x ** n

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * ctx.n * x ** (ctx.n - 1), None  # no gradient for the number n
### END SOLUTION


# %%
check.mul_and_pow(Mul, Pow)


# %% [markdown]
# ## 3 · Fix the bug: a backward that only works for `sum()`
#
# This `Softplus` computes `log(1 + exp(x))`, whose derivative is `sigmoid(x)`. With
# `y.sum().backward()` its gradient looks right, yet `gradcheck`, which compares `backward` with
# finite differences in every direction, disagrees:

# %%
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.sigmoid(x)


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
Softplus.apply(x).sum().backward()
print(x.grad)
print(torch.autograd.gradcheck(Softplus.apply, (x,), raise_exception=False))


# %% [markdown]
# Write the fixed `Softplus` below.

# %% grade_id="12-softplus"
### BEGIN SOLUTION
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.sigmoid(x)  # sum() hid the bug: its grad_output is all ones
### END SOLUTION


# %%
check.softplus(Softplus)

# %% [markdown]
# ## Summary
#
# - A `Function`'s `backward` returns one gradient per input of `forward` (`None` for a number)
#   and must multiply by `grad_output`; `sum()` (all ones) hides a missing
#   factor, `gradcheck` does not.
#
# Next: [exercises 13](ex13_engine_from_scratch.ipynb).
