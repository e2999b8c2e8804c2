# %% [markdown]
# # Exercises 17 · Forward mode
#
# Companion to [notebook 17](../notebooks/17_forward_mode.ipynb): what reverse mode costs,
# dual numbers, and the Jacobian from the other side. Replace each `# YOUR CODE HERE` with your
# answer, run the cell, then run the check below it.

# %%
import minigrad as torch
from minigrad_course.checks import forward_mode as check

# %% [markdown]
# ## 1 · Predict: how many backward passes
#
# Each program counts the backward passes `torch.autograd.functional.jacobian` takes, with a
# hook on its input.
#
# ```python
# W = torch.ones(4, 2) * 0.5
# passes = []
#
#
# def f(t):
#     t.register_hook(lambda grad: passes.append(1))
#     return (W @ t).tanh()
#
#
# torch.autograd.functional.jacobian(f, torch.ones(2))
# print(len(passes))
# ```
#
# ```python
# V = torch.ones(1, 6)
# passes = []
#
#
# def h(t):
#     t.register_hook(lambda grad: passes.append(1))
#     return (V @ t).exp()
#
#
# torch.autograd.functional.jacobian(h, torch.ones(6))
# print(len(passes))
# ```
#
# Set `passes_prints` to the two numbers they print.

# %% grade_id="17-passes"
### BEGIN SOLUTION
passes_prints = [4, 1]
### END SOLUTION

# %%
check.passes(passes_prints)

# %% [markdown]
# ## The dual numbers of these exercises
#
# The notebook's `Dual`, complete, with one more operation: `t.mixed(W)` is the matrix product
# `W @ t`. A matrix product is linear, so the tangent goes through the same matrix. Run the
# cell; it is not to be changed.

# %%
class Dual:
    """A value, and its tangent: the derivative along one direction of the inputs."""

    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):
        return Dual(self.value * other.value,
                    self.tangent * other.value + self.value * other.tangent)

    def sin(self):
        return Dual(self.value.sin(), self.tangent * self.value.cos())

    def mixed(self, W):
        return Dual(W @ self.value, W @ self.tangent)


# %% [markdown]
# ## 2 · Write it: two more rules
#
# Write `dual_exp(a)`, the dual number of $e^a$, and `dual_div(a, b)`, that of $a / b$, each
# taking `Dual`s and returning a `Dual`: the value as the operation computes it, the tangent
# by the derivative's rule, from the inputs' values and tangents.

# %% grade_id="17-rules"
def dual_exp(a):
    ### BEGIN SOLUTION
    return Dual(a.value.exp(), a.tangent * a.value.exp())
    ### END SOLUTION


def dual_div(a, b):
    ### BEGIN SOLUTION
    return Dual(a.value / b.value, (a.tangent * b.value - a.value * b.tangent) / b.value ** 2)
    ### END SOLUTION


# %%
check.rules(dual_exp, dual_div)

# %% [markdown]
# ## 3 · Write it: the Jacobian, one column at a time
#
# Notebook 05 built the Jacobian a row at a time, with one backward pass per output. Build it
# the other way: write `jacobian_by_columns(f, x)` for a function `f` of `Dual`s (it may use
# `+`, `*`, `.sin()` and `.mixed(W)`) and a vector `x`, with one forward pass of `f` per
# element of `x`, and no backward pass. Return the Jacobian as a matrix, one row per element of
# `f`'s output and one column per element of `x`. `torch.stack(columns, dim=1)` puts a list of
# columns side by side.

# %% grade_id="17-columns"
def jacobian_by_columns(f, x):
    ### BEGIN SOLUTION
    columns = []
    for j in range(x.numel()):
        direction = torch.zeros(x.numel())
        direction[j] = 1.0
        columns.append(f(Dual(x, direction)).tangent)
    return torch.stack(columns, dim=1)
    ### END SOLUTION


# %%
check.jacobian_by_columns(jacobian_by_columns)

# %% [markdown]
# ## Summary
#
# - Reverse mode takes one backward pass per element of the output, whatever the number of
#   inputs.
# - Every operation has a forward-mode rule: its value, and its tangent from its inputs'.
# - Forward mode gives the Jacobian a column per pass, reverse mode a row per pass.
#
# You have reached the end of the exercises. The worked answers are in `solutions/` of the
# course's repository; in a class, your instructor has them.
