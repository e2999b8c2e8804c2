# %% [markdown]
# # 03 · A second `backward()`: what happens to `.grad`
#
# Notebook 02 filled an empty `.grad`. What does `backward()` do when `.grad` already holds a
# gradient? We will find out with two tiny functions of one number, then see why PyTorch chose
# this behaviour (it makes training on batches too large for memory easy), and finally how it
# bites when you forget about it.

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
# ## Two results from one leaf
#
# Start from $x = 1$ and compute two things from it: $y = x^2$ and $z = x^3$. They are two
# separate graphs that share the leaf `x`.

# %%
x = torch.ones(1, requires_grad=True)
y = x**2
z = x**3
x

# %% [markdown]
# Both results can be drawn in one picture; the leaf they share appears once.

# %% tags=["minigrad-only"]
viz.draw(y, z)

# %% [markdown]
# <details><summary>What will <code>x.grad</code> print after <code>y.backward()</code>? Click to
# reveal</summary>
#
# `tensor([2.])`: $dy/dx = 2x$ at $x = 1$. Before that backward, `.grad` was `None` (notebook
# 02), so this first gradient is simply stored.
# </details>

# %%
y.backward()
x.grad

# %%
assert x.grad.item() == 2.0

# %% [markdown]
# Now run the backward of the *other* result, `z`.
#
# <details><summary>What will <code>x.grad</code> print after <code>z.backward()</code>? Click
# to reveal</summary>
#
# `tensor([5.])`, not `tensor([3.])`. The 3 from $dz/dx = 3x^2$ is *added* to the 2 already in
# `.grad`: $2 + 3 = 5$. `backward()` never overwrites `.grad`; it accumulates into it.
# </details>

# %%
z.backward()
x.grad

# %%
assert x.grad.item() == 2.0 + 3.0

# %% [markdown]
# Both graphs drawn after the two backward passes: `x` holds the sum.

# %% tags=["minigrad-only"]
viz.draw(y, z)

# %% [markdown]
# Here is the second backward pass again, step by step, on a fresh `x` whose `.grad` already
# holds the 2 from `y`. Each step asks first (**?**): say what comes, then press **Next ▶**.

# %% tags=["minigrad-only"]
x = torch.ones(1, requires_grad=True)
y = x**2
z = x**3
y.backward()
viz.backward_steps(z, predict=True)

# %% [markdown]
# ## The order does not matter
#
# Addition commutes, so running the two backward passes the other way round ends at the same
# place, passing through 3 instead of 2.

# %%
x = torch.ones(1, requires_grad=True)
y = x**2
z = x**3
z.backward()
print("after z.backward():", x.grad)
y.backward()
print("after y.backward():", x.grad)

# %%
assert x.grad.item() == 3.0 + 2.0

# %% [markdown]
# ## It is the same rule as inside one graph
#
# Adding is not a special case bolted on top. Inside a single graph, when a tensor feeds two
# operations, the gradients coming back along the two paths are added too: that is the chain
# rule for a sum. One backward of $x^2 + x^3$ gives the same 5 as the two backward passes above.

# %%
x = torch.ones(1, requires_grad=True)
both = x**2 + x**3
both.backward()
x.grad

# %%
assert x.grad.item() == 5.0

# %% [markdown]
# Step by step, again on a fresh `x` and asking first: both `PowBackward0` nodes send `x` a
# gradient. Does `x`'s `AccumulateGrad` run once for each, or once in all?

# %% tags=["minigrad-only"]
x = torch.ones(1, requires_grad=True)
both = x**2 + x**3
viz.backward_steps(both, predict=True)

# %% [markdown]
# So "accumulate" means: `.grad` holds the gradient of the **sum** of everything you have called
# `backward()` on since it was last cleared.
#
# ## Adding on purpose: micro-batches
#
# Training minimises a loss averaged over a batch of examples. Sometimes a batch does not fit in
# memory. Since `.grad` adds up, you can split the batch into micro-batches, call `backward()`
# on each part, and let `.grad` collect the parts: PyTorch users call this *gradient
# accumulation*.
#
# Here is a one-weight model $\hat y = w x$ fitted to $y = 3x$ on eight points, with a
# mean-squared-error loss. First the whole batch at once:

# %%
xs = torch.arange(1.0, 9.0)
ys = 3 * xs
w = torch.tensor(0.5, requires_grad=True)

loss = ((w * xs - ys) ** 2).mean()
loss.backward()
full_batch_grad = w.grad.clone()  # kept for later, not shown yet

# %% [markdown]
# Now the same batch as four micro-batches of two points. Each part's loss is a mean over two
# points, and it is divided by 4. Before starting, `w.grad = None` throws away the gradient
# from above (notebook 04 is about resetting).
#
# <details><summary>How will <code>w.grad</code> after the fourth micro-batch compare with the
# whole batch's gradient? Click to reveal</summary>
#
# They are equal: $-127.5$ both. Divided by 4, the four means over two points add up to the
# mean over eight; each `backward()` adds its part, and the printout shows the running total
# growing towards it.
# </details>

# %%
w.grad = None
for part in range(4):
    batch = slice(2 * part, 2 * part + 2)
    part_loss = ((w * xs[batch] - ys[batch]) ** 2).mean() / 4
    part_loss.backward()
    print(f"after micro-batch {part}: w.grad = {w.grad}")
print(f"whole batch at once:  w.grad = {full_batch_grad}")

# %%
assert torch.allclose(w.grad, full_batch_grad)

# %% [markdown]
# Only then would an optimizer take its step, once for the whole batch. The memory needed is
# that of one micro-batch; the gradient is that of the whole batch.
#
# ## Keeping a gradient: a name, or `.clone()`?
#
# The full-batch gradient above was kept with `w.grad.clone()`, not just `w.grad`. Does it
# matter? Below, `held` is a name for `w.grad` and `copy` a clone, both taken after one
# `backward()`; then a second `backward()` runs.
#
# <details><summary>What will <code>held</code>, <code>copy</code> and
# <code>held is w.grad</code> print? Click to reveal</summary>
#
# `tensor(-255.)`, `tensor(-127.5000)` and `True`. Adding into `.grad` does not make a new
# tensor: PyTorch adds the new gradient into the tensor already there, in place (in an ordinary
# `backward()`; with `create_graph=True`, notebook 15, it makes a new one). `held` is `w.grad`
# itself, so it moved with the sum: $-127.5 + (-127.5)$. Only the clone kept its value.
# </details>

# %%
w.grad = None
((w * xs - ys) ** 2).mean().backward()
held = w.grad
copy = w.grad.clone()
((w * xs - ys) ** 2).mean().backward()
print(held, copy, held is w.grad)

# %%
assert held is w.grad and held.item() == 2 * copy.item() == 2 * full_batch_grad.item()

# %% [markdown]
# To keep a gradient's value for later (to log it, compare it, plot it), clone it.
#
# ## Your turn: the last step at a leaf
#
# All of this happens in one node per leaf, its `AccumulateGrad`, the last step of every
# step-by-step view above. Write what it does as `accumulate(t, grad)`, for a leaf `t` and a
# gradient `grad` that reached it:
#
# - while `t.grad` is `None`, store a copy of `grad` (the caller may go on using its own
#   tensor);
# - after that, add `grad` into the tensor `t.grad` already holds, in place.
#
# No `backward()` here: you are writing the part of it that fills `.grad`.

# %% tags=["build"]
def accumulate(t, grad):
    ### BEGIN SOLUTION
    if t.grad is None:
        t.grad = grad.clone()  # a copy: the caller keeps its own tensor
    else:
        t.grad += grad  # into the tensor already there, so a name for it sees the sum
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import accumulation as check

check.accumulate(accumulate)

# %% [markdown]
# Your function replays the first two backward passes of this notebook at $x = 1$: $y = x^2$
# brings 2, then $z = x^3$ brings 3.

# %%
x = torch.ones(1, requires_grad=True)
accumulate(x, torch.tensor([2.0]))
held = x.grad
accumulate(x, torch.tensor([3.0]))
print(x.grad, held is x.grad)

# %%
assert x.grad.item() == 2.0 + 3.0 and held is x.grad

# %% [markdown]
# ## When it bites
#
# The same adding goes on whether you meant it or not. Say you compute $x^2$ at $x = 1$ again and
# again, expecting $dy/dx = 2$ each time, and call `backward()` in a loop without clearing:

# %%
x = torch.tensor(1.0, requires_grad=True)
seen = []
for step in range(10):
    y = x**2
    y.backward()
    seen.append(x.grad.item())
print(seen)

# %%
assert seen == [2.0 * (step + 1) for step in range(10)]

# %% [markdown]
# The value never changes, yet the gradient read after each step grows by 2 every time:

# %%
fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(range(1, 11), seen, "o-", label="x.grad read after each backward()")
ax.axhline(2.0, color="gray", linestyle="--", label="dy/dx = 2, what one step should see")
ax.set_xlabel("number of backward() calls")
ax.set_ylabel("x.grad")
ax.legend()
plt.show()

# %% [markdown]
# In a training loop this is a real bug: each update would use the sum of all past gradients.
# The fix is to clear `.grad` between steps, which is the subject of the next notebook.
#
# ## Summary
#
# - `backward()` adds into `.grad`; it never replaces it. `y = x**2` then `z = x**3` at $x = 1$
#   gives 2, then $2 + 3 = 5$, in either order.
# - It is the chain rule's sum carried across calls: `.grad` holds the gradient of the sum of all
#   outputs you called `backward()` on since the last reset.
# - The adding happens in place: a name taken for `.grad` changes with it; `.clone()` keeps a
#   value. You wrote it: a leaf's `AccumulateGrad` copies the first gradient, then adds.
# - That makes gradient accumulation over micro-batches a two-line loop.
# - It also means a loop that never clears `.grad` reads ever-growing gradients.
#
# Exercises: [exercises/ex03_accumulation.ipynb](../exercises/ex03_accumulation.ipynb).
# Next: [04 · Resetting gradients](04_resetting_gradients.ipynb).
