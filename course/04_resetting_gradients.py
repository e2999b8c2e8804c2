# %% [markdown]
# # 04 · Resetting gradients: `zero_()`, `None` and `optimizer.zero_grad()`
#
# Notebook 03 showed that `backward()` adds into `.grad`. So before each new gradient you want to
# read on its own, the old one has to go. There are three ways to do it, and they differ in one
# detail: whether `.grad` ends up as a tensor of zeros or as `None`. At the end we train a small
# model twice, once forgetting to reset, once doing it right, and plot the difference.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

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
# Step by step, the last frame now reads "was None, now 3": no addition, a new tensor.

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
# Here is the usual loop with one line missing: nothing resets the gradients, so every
# `backward()` adds this step's gradient to the sum of all the previous ones.

# %%
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.2)
forgot_losses = []
for step in range(40):
    loss = mse(w, b)
    loss.backward()  # adds to the gradients of all previous steps
    optimizer.step()
    forgot_losses.append(loss.item())
forgot = (w.item(), b.item())
print(f"final loss {forgot_losses[-1]:.4f}, w = {forgot[0]:.4f}, b = {forgot[1]:.4f}")

# %% [markdown]
# ## The same loop with a reset
#
# One added line, `optimizer.zero_grad()`, at the start of each step.
#
# <details><summary>Which run reaches the lower loss? Click to reveal</summary>
#
# The one that resets. Without the reset, each step moves by the *sum* of all past gradients, so
# the parameters overshoot and swing back and forth instead of settling, and the loss never
# comes down for good.
# </details>

# %%
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.2)
reset_losses = []
for step in range(40):
    optimizer.zero_grad()
    loss = mse(w, b)
    loss.backward()
    optimizer.step()
    reset_losses.append(loss.item())
reset = (w.item(), b.item())
print(f"final loss {reset_losses[-1]:.4f}, w = {reset[0]:.4f}, b = {reset[1]:.4f}")

# %%
assert reset_losses[-1] < 0.02 < forgot_losses[-1]
assert abs(reset[0] - 2) < 0.1 and abs(reset[1] - 1) < 0.01

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
# Side by side: the loss of both runs, and the lines they end with.

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
left.semilogy(forgot_losses, label="forgot zero_grad()")
left.semilogy(reset_losses, label="zero_grad() every step")
left.set_xlabel("step")
left.set_ylabel("loss (log scale)")
left.set_title("loss per step")

right.scatter(xs.tolist(), ys.tolist(), color="black", s=12, label="data")
for (slope, intercept), label in [(forgot, "forgot zero_grad()"), (reset, "zero_grad()")]:
    right.plot([-1, 1], [intercept - slope, intercept + slope], label=label)
right.set_xlabel("x")
right.set_ylabel("y")
right.set_title("the line each run ends with")
right.legend()  # the colours are the same on the left
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
#   `set_to_none=False` writes zeros instead.
# - Reset once per step, after `step()` and before the next `backward()`. Forgetting it makes
#   each update use the sum of all past gradients, and training goes wrong without any error.
#
# Exercises: [exercises/ex04_resetting_gradients.ipynb](../exercises/ex04_resetting_gradients.ipynb).
# Next: [05 · Non-scalar outputs](05_non_scalar_outputs.ipynb).
