# %% [markdown]
# # 04 · Resetting gradients: `zero_()`, `None` and `optimizer.zero_grad()`
#
# Notebook 03 showed that `backward()` adds into `.grad`. So before each new gradient you want to
# read on its own, the old one has to go. There are three ways to do it, and they differ in one
# detail: whether `.grad` ends up as a tensor of zeros or as `None`. At the end we train a small
# model twice, once forgetting to reset, once doing it right, and plot both runs step by step.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %%
import matplotlib.pyplot as plt

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## `grad.zero_()`: overwrite with zeros, in place
#
# Back to $x = 1$, $y = x^2$ and $z = x^3$. This time we clear `.grad` between the two backward
# passes. In PyTorch a method name ending in `_` changes its tensor in place, so
# `x.grad.zero_()` fills the existing gradient tensor with zeros (and returns it).

# %%
x = torch.ones(1, requires_grad=True)
y = x**2
z = x**3
y.backward()
print("after y.backward():", x.grad)
print("zero_() returns:   ", x.grad.zero_())

# %% [markdown]
# <details><summary>What will <code>x.grad</code> print after <code>z.backward()</code> now?
# Click to reveal</summary>
#
# `tensor([3.])`: just $dz/dx$. The 3 is still *added*, but to zero.
# </details>

# %%
z.backward()
x.grad

# %%
assert x.grad.item() == 3.0

# %% [markdown]
# Step by step, on a fresh copy: the final `AccumulateGrad` step reads $0 + 3 = 3$. The zeroed
# tensor is still there, and backward adds into it as always.

# %% tags=["minigrad-only"]
x = torch.ones(1, requires_grad=True)
y = x**2
z = x**3
y.backward()
x.grad.zero_()
viz.backward_steps(z)

# %% [markdown]
# ## `grad = None`: drop the tensor
#
# You can also assign `None`. The gradient tensor is released, and the next backward creates a
# fresh one, exactly as on the very first call (notebook 02).

# %%
x = torch.ones(1, requires_grad=True)
(x**2).backward()
x.grad = None
print("after x.grad = None:", x.grad)
(x**3).backward()
print("after (x**3).backward():", x.grad)

# %%
assert x.grad.item() == 3.0

# %% [markdown]
# Step by step, the `AccumulateGrad` step now reads "was None, now 3": no addition, a new tensor.

# %% tags=["minigrad-only"]
x = torch.ones(1, requires_grad=True)
(x**2).backward()
x.grad = None
cube = x**3
viz.backward_steps(cube)

# %% [markdown]
# Both give the right next gradient. The difference shows in between: after `zero_()` there is
# a tensor of zeros, after `= None` there is nothing, and code that reads `.grad` has to be ready
# for `None`.
#
# ## A reference held across the reset
#
# The two can also differ for a name you took for `.grad` before the reset (notebook 03: that
# name is the gradient tensor itself, which backward adds into in place).
#
# <details><summary>Both programs take <code>held = x.grad</code> after
# <code>(x**2).backward()</code>, reset, then run <code>(x**3).backward()</code>. What will each
# print? Click to reveal</summary>
#
# `zero_(): tensor([3.]) True`: `zero_()` emptied that very tensor, and the next backward added
# into it again: `held` is still `x.grad`, zeroed, then given the 3.
# `= None:  tensor([2.]) False`: `= None` let go of it, and the next backward made a new one:
# `held` keeps the old gradient, no longer `x.grad`, which is a new tensor holding 3.
# </details>

# %%
x = torch.ones(1, requires_grad=True)
(x**2).backward()
held = x.grad
x.grad.zero_()
(x**3).backward()
print("zero_():", held, held is x.grad)
after_zero = (held.item(), held is x.grad)

x = torch.ones(1, requires_grad=True)
(x**2).backward()
held = x.grad
x.grad = None
(x**3).backward()
print("= None: ", held, held is x.grad)
after_none = (held.item(), held is x.grad)

# %%
assert after_zero == (3.0, True) and after_none == (2.0, False) and x.grad.item() == 3.0

# %% [markdown]
# Code that keeps gradients between steps (for logging, or gradient clipping statistics) should
# `.clone()` them; otherwise what it sees depends on how the loop resets.
#
# ## `optimizer.zero_grad()`: reset every parameter at once
#
# A model has many parameters, and an optimizer (`torch.optim.SGD`, `torch.optim.Adam`...) holds
# the list of them. Its `zero_grad()` resets all of their `.grad` in one call.
#
# <details><summary>What will <code>w.grad</code> print after <code>optimizer.zero_grad()</code>?
# Click to reveal</summary>
#
# `None`. `zero_grad(set_to_none=True)` is the default (since PyTorch 2.0): the optimizer sets
# each `.grad` to `None` rather than to zeros.
# </details>

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.1)

(w.sum() * b).backward()
print("before:", w.grad, b.grad)
optimizer.zero_grad()
print("after: ", w.grad, b.grad)

# %%
assert w.grad is None and b.grad is None

# %% [markdown]
# Pass `set_to_none=False` to get the old behaviour, zeros in place, like calling `zero_()` on
# each parameter's gradient:

# %%
(w.sum() * b).backward()
optimizer.zero_grad(set_to_none=False)
print(w.grad, b.grad)

# %%
assert torch.equal(w.grad, torch.zeros(2)) and b.grad.item() == 0.0

# %% [markdown]
# Why `None` by default? It skips writing zeros into every gradient (memory traffic, on models
# with billions of weights), and it keeps a distinction zeros would erase: a parameter whose
# `.grad` is `None` received no gradient at all, and optimizers skip it in `step()`. A gradient of
# zeros is a real gradient: the parameter takes part in the step.

# %%
optimizer.zero_grad()
before = w.detach().clone()
optimizer.step()
print("w after a step with no gradients:", w)

# %%
assert torch.equal(w.detach(), before)

# %% [markdown]
# ## Your turn: `zero_grad` without an optimizer
#
# Write `zero_grad(params, set_to_none=True)`: what an optimizer's `zero_grad()` does to the
# parameters it holds. With `set_to_none`, drop every gradient; without it, fill each gradient
# with zeros in the tensor already there. A parameter whose `.grad` is `None` received nothing
# and stays `None`. The two ways of the first sections are all you need.

# %% tags=["build"]
def zero_grad(params, set_to_none=True):
    ### BEGIN SOLUTION
    for p in params:
        if p.grad is None:
            continue  # nothing to reset
        if set_to_none:
            p.grad = None
        else:
            p.grad.zero_()  # the same tensor: a name held for it sees the zeros
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import resetting_gradients as check

check.reset_all(zero_grad)

# %% [markdown]
# ## A training loop that forgets to reset
#
# Fit a line $\hat y = w x + b$ to 21 points lying near $y = 2x + 1$, by plain gradient descent
# on the mean squared error. The data are a fixed formula (no random numbers), so every run
# gives the same curves.

# %%
xs = torch.linspace(-1.0, 1.0, 21)
ys = 2 * xs + 1 + 0.2 * torch.sin(7 * xs)


def mse(w, b):
    return ((w * xs + b - ys) ** 2).mean()


# %% [markdown]
# Here is the usual loop, with the reset passed in: `reset=zero_grad` runs your function on
# `[w, b]` at each step, where an optimizer's `zero_grad()` usually goes; `reset=None` leaves
# that line out, so every `backward()` adds this step's gradient to the sum of all the previous
# ones.

# %%
def train(reset, steps=60):
    """Gradient descent on mse, calling reset([w, b]) at each step unless reset is None: the
    loss and w of every step, then w, b and the last loss."""
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    optimizer = torch.optim.SGD([w, b], lr=0.2)
    losses, ws = [], []
    for step in range(steps):
        if reset is not None:
            reset([w, b])
        loss = mse(w, b)
        loss.backward()  # without a reset: adds to the gradients of all previous steps
        optimizer.step()
        losses.append(loss.item())
        ws.append(w.item())
    return losses, ws, w, b, loss


# %% [markdown]
# ## With and without the reset
#
# Both runs take 60 steps from $w = b = 0$; the best line has $w$ close to 2.
#
# <details><summary>Will either run settle on a line? Click to reveal</summary>
#
# Only the one that resets: its `w` approaches 2 and stays. The other one's `.grad` is the *sum*
# of every gradient so far, so each step keeps all the push of the earlier ones: momentum with no
# friction. Its `w` swings from 0 to almost 4 and back, around the best value, for as long as it
# runs, and its loss at any one step is wherever in the swing it lands (counting steps from 0,
# as the plot below does: 0.03 at step 36, 2.20 three steps later).
# </details>

# %%
forgot_losses, forgot_ws, *_ = train(reset=None)
reset_losses, reset_ws, w, b, loss = train(reset=zero_grad)
print("forgot, w every 5 steps:", [round(value, 2) for value in forgot_ws[::5]])
print("reset,  w every 5 steps:", [round(value, 2) for value in reset_ws[::5]])
print(f"final loss: forgot {forgot_losses[-1]:.4f}, reset {reset_losses[-1]:.4f}")

# %%
assert reset_losses == sorted(reset_losses, reverse=True)  # never rises
assert all(abs(value - 2) < 0.1 for value in reset_ws[40:])
assert max(forgot_ws[40:]) > 3.5 and min(forgot_ws[40:]) < 0.5  # still swinging
assert (round(forgot_losses[36], 2), round(forgot_losses[39], 2)) == (0.03, 2.2)

# %% [markdown]
# Putting `zero_grad()` right after `optimizer.step()` works just as well. What matters is that
# it runs after `step()` has used the gradients and before the next `backward()` adds to them.
# Between `backward()` and `step()` it would throw away the gradient `step()` is about to use.
#
# The graph of the last step's loss: the parameters `w` and `b` are the leaves that get a
# `.grad` (drawn with the last step's gradient), the data `xs` and `ys` are constants.

# %% tags=["minigrad-only"]
viz.draw(loss)

# %% [markdown]
# Side by side, step by step: the slope `w` of both runs, and their loss.

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
left.plot(forgot_ws, label="forgot zero_grad()")
left.plot(reset_ws, label="zero_grad() every step")
left.axhline(2.0, color="gray", linestyle="--", label="w = 2")
left.set_xlabel("step")
left.set_ylabel("w")
left.set_title("w per step")
fig.legend(loc="outside lower center", ncols=3)

right.semilogy(forgot_losses)
right.semilogy(reset_losses)
right.set_xlabel("step")
right.set_ylabel("loss (log scale)")
right.set_title("loss per step (same colours)")
plt.show()

# %% [markdown]
# The only difference between the two runs is one line, and nothing raised an error: the bug
# shows only in the numbers. That is why "did I zero the gradients?" is the first question to ask
# when a loss behaves strangely.
#
# ## Summary
#
# - `x.grad.zero_()` fills the gradient with zeros in place; `x.grad = None` drops it. Either way
#   the next `backward()` gives just the new gradient.
# - `optimizer.zero_grad()` resets every parameter it holds; by default (`set_to_none=True`) it
#   sets `.grad` to `None`, which saves work and lets `step()` skip parameters with no gradient.
#   `set_to_none=False` writes zeros instead. Your `zero_grad` did the same for the fit.
# - A name held for `.grad` is zeroed with it by `zero_()`, and keeps the old value after
#   `= None`; `.clone()` what you keep.
# - Reset once per step, after `step()` and before the next `backward()`. Forgetting it makes
#   each update use the sum of all past gradients: the parameters swing around the best values
#   and never settle, without any error.
#
# Exercises: [exercises/ex04_resetting_gradients.ipynb](../exercises/ex04_resetting_gradients.ipynb).
# Next: [05 · Non-scalar outputs](05_non_scalar_outputs.ipynb).
