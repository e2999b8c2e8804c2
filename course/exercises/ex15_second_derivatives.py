# %% [markdown]
# # Exercises 15 · Gradients of gradients
#
# Companion to [notebook 15](../notebooks/15_second_derivatives.ipynb): `create_graph=True`
# and derivatives of derivatives. Replace each `# YOUR CODE HERE` with your answer, run the
# cell, then run the check below it.
#
# Predictions are numbers, `None`, or `"error"` when a line raises before the print.

# %%
import minigrad as torch
from minigrad_course.checks import second_derivatives as check

# %% [markdown]
# ## 1 · Predict: a derivative of a derivative
#
# ```python
# x = torch.tensor(1.0, requires_grad=True)
# y = x ** 4
# (g,) = torch.autograd.grad(y, x, create_graph=True)
# print(g)
# (g2,) = torch.autograd.grad(g, x)
# print(g2)
# print(x.grad)
# ```
#
# Set `second_order_prints` to the three values it prints (for a tensor with a `grad_fn`, just
# its number).

# %% grade_id="15-second-order"
### BEGIN SOLUTION
second_order_prints = [4.0, 12.0, None]
### END SOLUTION

# %%
check.second_order(second_order_prints)


# %% [markdown]
# ## 2 · Write it: any number of derivatives
#
# The notebook differentiated twice. Write `nth_derivative(f, x, n)`, which returns the `n`-th
# derivative of `f` at `x` for any `n` from 1 up: `f` is a function of one scalar tensor, `x` a
# leaf that requires grad. Use `torch.autograd.grad` for every pass, so that `x.grad` stays
# `None`, and record a pass only when another pass will go back through it: the result
# should be a plain tensor, as `second` was in the notebook.

# %% grade_id="15-nth"
def nth_derivative(f, x, n):
    ### BEGIN SOLUTION
    derivative = f(x)
    for done in range(n):
        more_to_come = done < n - 1
        (derivative,) = torch.autograd.grad(derivative, x, create_graph=more_to_come)
    return derivative
    ### END SOLUTION


# %%
check.nth_derivative(nth_derivative)

# %% [markdown]
# ## 3 · Write it: a gradient penalty
#
# Some losses punish steep gradients: they add to the loss the squared size of its own
# gradient, so that training prefers flat regions (WGAN-GP does this for a critic). Write
# `penalized_gradient(loss_fn, w)`, where `loss_fn(w)` is a single number and `w` a leaf that
# requires grad: with `g` the gradient of `loss_fn(w)` with respect to `w`, return the gradient
# with respect to `w` of `loss_fn(w) + (g * g).sum()`. Use `torch.autograd.grad` for both
# passes, so that `w.grad` stays `None`.

# %% grade_id="15-penalty"
def penalized_gradient(loss_fn, w):
    ### BEGIN SOLUTION
    loss = loss_fn(w)
    (g,) = torch.autograd.grad(loss, w, create_graph=True)  # the penalty goes back through g
    (total,) = torch.autograd.grad(loss + (g * g).sum(), w)
    return total
    ### END SOLUTION


# %%
check.penalized_gradient(penalized_gradient)

# %% [markdown]
# ## Summary
#
# - `create_graph=True` records the backward pass, so its result can be differentiated again.
# - Each pass that a later pass goes back through is recorded; the last one need not be.
# - A loss may hold its own gradient (a penalty): record that gradient, then differentiate
#   the sum.
#
# Next: [exercises 16](ex16_saved_tensors.ipynb).
