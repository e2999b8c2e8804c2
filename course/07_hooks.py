# %% [markdown]
# # 07 · Hooks: look at a gradient as it passes, or replace it
#
# A *hook* is a function of yours that backward calls with a tensor's gradient the moment it is
# ready. It can look at the gradient (print it, record it: unlike `retain_grad()`, it stores
# nothing itself), or return a tensor that flows on in its place. This notebook puts hooks on
# tensors and on nodes, has you run them as backward does, and uses one to find why some units
# of a small network stopped learning.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %%
import matplotlib.pyplot as plt
import numpy as np

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## `register_hook`: a function called with the gradient
#
# `t.register_hook(fn)` asks backward to call `fn(grad)` when the gradient for `t` is ready,
# before it flows further back. If `fn` returns `None`, the gradient flows on unchanged; if it
# returns a tensor, that tensor replaces the gradient for everything further back.
#
# Several hooks on one tensor run in the order they were registered. Here $h = 2x$ at $x = 1$
# and $y = 3h$, so $dy/dh = 3$; the second hook multiplies by 10.
#
# <details><summary>What will this print, and what will <code>x.grad</code> be? Click to
# reveal</summary>
#
# `first sees 3.0`, then `third sees 30.0`, and `x.grad` is `tensor(60.)`: each hook receives
# what the previous one passed on, so the third sees the gradient the second one returned, and
# $x$ gets $30 \times dh/dx = 30 \times 2$.
# </details>

# %%
x = torch.tensor(1.0, requires_grad=True)
h = x * 2
first = h.register_hook(lambda grad: print("first sees", grad.item()))
second = h.register_hook(lambda grad: grad * 10)
third = h.register_hook(lambda grad: print("third sees", grad.item()))
y = h * 3
y.backward(retain_graph=True)  # keep the graph: we run backward on it again below
print("x.grad:", x.grad)

# %%
assert x.grad.item() == 3 * 10 * 2

# %% [markdown]
# `register_hook` returns a handle (PyTorch's `RemovableHandle`); `handle.remove()` takes the
# hook out again. Remove the one that multiplies and run backward once more (`retain_graph=True`
# above allowed a second pass; notebook 09 is about that).
#
# <details><summary>What will <code>x.grad</code> be now? Click to reveal</summary>
#
# `tensor(6.)`: the true $dy/dx = 3 \cdot 2$. (`.grad` was reset first, or it would have
# accumulated.) The two printing hooks are still there, and both now see 3.
# </details>

# %%
second.remove()
x.grad = None
y.backward()
print("x.grad:", x.grad)

# %%
assert x.grad.item() == 3 * 2

# %% [markdown]
# Step by step, asking first, on a fresh copy with one hook that multiplies by 10: the hook
# gets a frame of its own.

# %% tags=["minigrad-only"]
x = torch.tensor(1.0, requires_grad=True)
h = x * 2
scale_up = h.register_hook(lambda grad: grad * 10)
y = h * 3
viz.backward_steps(y, predict=True)

# %% [markdown]
# ## Your turn: a tensor's hooks, in turn
#
# Write what backward does with a tensor's hooks: `run_hooks(hooks, grad)` calls each hook in
# order with the gradient as it stands (a returned tensor replaces it, `None` leaves it) and
# returns the gradient that flows on.

# %% tags=["build"]
def run_hooks(hooks, grad):
    ### BEGIN SOLUTION
    for hook in hooks:
        result = hook(grad)
        if result is not None:  # a replacement: the next hooks see it
            grad = result
    return grad
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import hooks as check

check.hooks_in_turn(run_hooks)

# %% [markdown]
# Your function on the first example's hooks and the 3 reaching `h`, times $dh/dx = 2$:

# %%
flows_on = run_hooks([lambda grad: print("first sees", grad.item()),
                      lambda grad: grad * 10,
                      lambda grad: print("third sees", grad.item())], torch.tensor(3.0))
print("x.grad:", flows_on * 2)

# %%
assert flows_on.item() == 30.0

# %% [markdown]
# A hook on a *leaf* runs before the gradient is added into `.grad`, so it changes what gets
# stored: a way to clip or rescale the gradient of one parameter. And hooks run before
# `retain_grad()` stores its copy, so a retained `.grad` is the gradient *after* the hooks.

# %%
w = torch.tensor(1.0, requires_grad=True)
w.register_hook(lambda grad: grad.clamp(-1.0, 1.0))  # clip this parameter's gradient
h = w * 5
h.retain_grad()
h.register_hook(lambda grad: grad * 2)
(h * 4).backward()
print("h.grad:", h.grad, " w.grad:", w.grad)

# %%
assert h.grad.item() == 4 * 2  # the hook's doubled gradient was retained
assert w.grad.item() == 1.0  # 8 * 5 = 40, clipped to 1 before it was stored

# %% [markdown]
# PyTorch has more hooks than these: on `grad_fn` nodes, and on `nn.Module`s for whole layers
# (`register_full_backward_hook`). They too are called with gradients and may return
# replacements. The next kind does neither.
#
# ## After `.grad` is written: an optimizer step inside backward
#
# `p.register_post_accumulate_grad_hook(fn)` runs on a leaf once its `.grad` has been
# accumulated. `fn` is handed the leaf itself, not a gradient, and must return `None`: there is
# nothing left to replace. It can update each parameter inside `backward()` the moment its
# gradient is complete and drop that gradient at once, so a large model never holds every
# `.grad` at the same time.
#
# Here $\ell = (x \cdot w + b - 1)^2$ with $x = (1, 2)$, $w = (1, -2)$ and $b = 0.5$. The
# hook takes a step of 0.1 on each.
#
# <details><summary>What will <code>w</code>, <code>b</code> and their <code>.grad</code> be
# after <code>backward()</code>? Click to reveal</summary>
#
# The output $x \cdot w + b$ is $-2.5$, so $d\ell/db = 2(-2.5 - 1) = -7$ and
# $d\ell/dw = -7x = (-7, -14)$.
# `w` is $(1, -2) - 0.1 \cdot (-7, -14) = (1.7, -0.6)$ and `b` is $0.5 + 0.7 = 1.2$, already
# updated when `backward()` returns; both `.grad` are `None`, because the hook set them so
# after using them. Each hook printed its gradient as it landed, `b`'s first: its
# `AccumulateGrad` was ready first.
# </details>

# %%
x = torch.tensor([1.0, 2.0])
w = torch.tensor([1.0, -2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)


def sgd_step(param):
    print("landed:", param.grad)
    with torch.no_grad():  # the update itself is not part of any graph
        param -= 0.1 * param.grad
    param.grad = None  # used: free it now


for param in (w, b):
    param.register_post_accumulate_grad_hook(sgd_step)
loss = (x @ w + b - 1) ** 2
loss.backward()
print(w, b, w.grad, b.grad)

# %%
assert torch.allclose(w, torch.tensor([1.7, -0.6])) and torch.allclose(b, torch.tensor(1.2))
assert w.grad is None and b.grad is None

# %% [markdown]
# A hook that tries to hand back a new gradient, as a `register_hook` hook may, is refused, and
# by then `.grad` already holds the gradient it was meant to replace:

# %%
v = torch.tensor(1.0, requires_grad=True)
v.register_post_accumulate_grad_hook(lambda param: param.grad * 2)
try:
    (v * 3).backward()
except RuntimeError as error:
    print(error)
print("v.grad:", v.grad)

# %% [markdown]
# ## Debugging with intermediate gradients: dead ReLU units
#
# A small network: 64 points in the plane, a hidden layer of 8 ReLU units, one output. Its
# weights come from numpy's fixed random numbers, so the run is the same everywhere. It takes
# one step of gradient descent with a learning rate far too large, 5.

# %%
rng = np.random.RandomState(0)
points = torch.tensor(rng.uniform(-1, 1, (64, 2)), dtype=torch.float32)
targets = (points[:, 0] * points[:, 1] > 0).float()  # 1 in two opposite quadrants
w1 = torch.tensor(rng.normal(0, 1, (2, 8)), dtype=torch.float32, requires_grad=True)
b1 = torch.tensor(rng.normal(0, 0.5, 8), dtype=torch.float32, requires_grad=True)
w2 = torch.tensor(rng.normal(0, 1, (8, 1)), dtype=torch.float32, requires_grad=True)

z = points @ w1 + b1
loss = (((torch.relu(z) @ w2).squeeze(1) - targets) ** 2).mean()
loss.backward()
with torch.no_grad():
    for parameter in (w1, b1, w2):
        parameter -= 5.0 * parameter.grad  # far too large a step
        parameter.grad = None
print(f"loss before the step: {loss.item():.4f}")

# %% [markdown]
# Are all hidden units still learning? A hook on the pre-activations `z` records the gradient
# each example sends to each unit, and is removed afterwards.

# %%
z = points @ w1 + b1
hidden = torch.relu(z)
out = (hidden @ w2).squeeze(1)
loss = ((out - targets) ** 2).mean()

recorded = {}
handle = z.register_hook(lambda grad: recorded.update(z=grad))
loss.backward()
handle.remove()

grad_z = recorded["z"]
reached = (grad_z != 0).sum(dim=0)  # per unit: examples that send it a gradient
print("examples reaching each unit:", reached.tolist())

# %% [markdown]
# <details><summary>Units 1, 3 and 5 get nothing. What will <code>w1.grad</code> hold for
# them? Click to reveal</summary>
#
# Exact zeros, in both rows of their columns. ReLU's derivative is 0 wherever its input is
# negative, and those units' input is negative for every example: no gradient gets through, so
# their incoming weights never change. They are *dead*: the big step moved their weights and
# biases (down to $-13.9$, $-2.8$ and $-2.7$) so far that no point of the data gives them a
# positive input, and plain gradient descent will never bring them back.
# </details>

# %%
dead = [unit for unit, count in enumerate(reached.tolist()) if count == 0]
print("dead units:", dead)
print(w1.grad[:, dead])
print(f"their largest pre-activation: {z[:, dead].max().item():.2f}")
print("their biases:", [round(bias, 1) for bias in b1[dead].tolist()])

# %%
assert dead == [1, 3, 5]
assert torch.equal(w1.grad[:, dead], torch.zeros(2, 3))
assert (z[:, dead] < 0).all()

# %% [markdown]
# As a picture: how many of the 64 examples send each unit a gradient. A bar at zero is a unit
# that has stopped learning.

# %%
fig, ax = plt.subplots(figsize=(5, 2.8))
ax.bar(range(8), reached.tolist(), color="tab:blue")
for unit in dead:
    ax.text(unit, 1, "dead", color="tab:red", ha="center", va="bottom", rotation=90)
ax.set_xticks(range(8))
ax.set_xlabel("hidden unit")
ax.set_ylabel("examples with grad != 0")
ax.set_title("gradient reaching each ReLU unit")
plt.show()

# %% [markdown]
# The fix belongs to training, not to autograd (a smaller learning rate, a better
# initialisation, or `LeakyReLU`, whose slope is never zero); finding the problem took one hook.
# The graph of the loss after that step, with `z` among its intermediates:

# %% tags=["minigrad-only"]
viz.draw(loss)

# %% [markdown]
# ## Hooks on nodes, and the order of them all
#
# A `grad_fn` node takes hooks of its own. `y.grad_fn.register_prehook(fn)` calls
# `fn(grad_outputs)` with the gradients that reached the node, before it runs;
# `y.grad_fn.register_hook(fn)` calls `fn(grad_inputs, grad_outputs)` after it ran, with what it
# computed for its inputs. Both get tuples, one entry per output or input, and may return a
# tuple to use instead.
#
# <details><summary>In which order will the five hooks below run? Click to reveal</summary>
#
# `y hook`, `MulBackward0 pre-hook`, `MulBackward0 hook`, `x hook`, `x post-accumulate hook`,
# whatever order they were registered in. `y`'s node has its turn first, then `x`'s
# `AccumulateGrad`, and when a node's turn comes, its hooks run in one order: the tensor's
# hooks, then `retain_grad()`'s copy, the node's pre-hooks, the node itself, for a leaf the
# post-accumulate hooks, and last the node's post-hooks.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
events = []
x.register_post_accumulate_grad_hook(lambda leaf: events.append("x post-accumulate hook"))
y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: events.append("MulBackward0 hook"))
x.register_hook(lambda grad: events.append("x hook"))
y.grad_fn.register_prehook(lambda grad_outputs: events.append("MulBackward0 pre-hook"))
y.register_hook(lambda grad: events.append("y hook"))
(y * y).backward()
print(events)

# %%
assert events == ["y hook", "MulBackward0 pre-hook", "MulBackward0 hook", "x hook",
                  "x post-accumulate hook"]

# %% [markdown]
# ## Summary
#
# - `t.register_hook(fn)` calls `fn(grad)` when `t`'s gradient is ready: return `None` to look,
#   a tensor to replace it for everything further back. Several run in registration order.
# - `register_hook` returns a handle; `handle.remove()` takes the hook out again.
# - A hook on a leaf runs before the gradient is added into `.grad` (a way to clip one
#   parameter's gradient); hooks also run before `retain_grad()` stores its copy.
# - `register_post_accumulate_grad_hook(fn)` calls `fn(leaf)` after the leaf's `.grad` is
#   written, and `fn` must return `None`: the place for an optimizer step inside backward.
# - Gradients of intermediates are a debugging tool: a unit that receives exactly zero from
#   every example is a dead ReLU, and one hook on the pre-activations finds it.
# - A node's `register_prehook` and `register_hook` run before and after it, after the
#   tensor's hooks.
#
# Exercises: [exercises/ex07_hooks.ipynb](../exercises/ex07_hooks.ipynb).
# Next: [08 · In-place operations](08_inplace.ipynb).
