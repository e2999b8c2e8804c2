# %% [markdown]
# # 10 · Stopping gradients: `detach()`, `no_grad()`, `requires_grad_()`
#
# This notebook keeps things *out* of a graph, as training code must: a target that counts as
# a constant, a running total of the loss, the weights' update, evaluation, a frozen layer.
# `detach()` cuts one tensor out, `torch.no_grad()` records nothing in a block,
# `requires_grad_(False)` freezes a leaf; `model.eval()` is easy to mistake for one of them.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## A target that must stay still: `detach()`
#
# `t.detach()` returns a tensor with `t`'s values (the same memory) and no history: it does not
# require grad, it is a leaf, and no gradient flows back through it.
#
# Where it matters: a prediction trained towards a target computed from the same parameters,
# such as a *temporal-difference* target in reinforcement learning: the reward plus the
# discounted value of the next state. Take one weight $w = 0.5$ and a value $v(s) = w\,s$.
# The prediction for state $s = 2$ is $w \cdot 2 = 1$; the target is the reward $r = 1$ plus
# $\gamma = 0.5$ times the value of the next state $s' = 4$, so
# $1 + 0.5 \cdot (w \cdot 4) = 2$. The loss is $(\text{prediction} - \text{target})^2 = 1$.
#
# The prediction should move towards the target, not the target towards the prediction, so
# the target is detached: $\partial L/\partial w = 2(1 - 2) \cdot 2 = -4$.

# %%
w = torch.tensor(0.5, requires_grad=True)
prediction = w * 2
target = 1 + 0.5 * (w * 4).detach()
loss = (prediction - target) ** 2
loss.backward()
print(prediction, target, loss)
print("w.grad:", w.grad, " target.requires_grad:", target.requires_grad)

# %%
assert w.grad.item() == -4.0 and not target.requires_grad and target.grad_fn is None

# %% [markdown]
# In the graph the target is a grey constant: nothing links it to `w`.

# %% tags=["minigrad-only"]
viz.draw(loss)

# %% [markdown]
# <details><summary>Without <code>.detach()</code>, what will <code>w.grad</code> be? Click to
# reveal</summary>
#
# `tensor(0.)`. The gradient now also flows through the target: $\partial L/\partial w =
# 2(1 - 2)\,(2 - 0.5 \cdot 4) = 0$. Raising $w$ raises the prediction by 2 and the target by
# $0.5 \cdot 4 = 2$ as well, so the loss cannot move: the target runs away exactly as fast as
# the prediction chases it, and this $w$ never learns.
# </details>

# %%
w.grad = None
target_live = 1 + 0.5 * (w * 4)
((w * 2 - target_live) ** 2).backward()
print("w.grad:", w.grad, " target_live.requires_grad:", target_live.requires_grad)

# %%
assert w.grad.item() == 0.0 and target_live.requires_grad

# %% [markdown]
# `detach()` shares memory with the original: change one in place and the other changes too
# (and, notebook 08, its version counter moves). For an independent copy, `t.detach().clone()`.
#
# ## A running loss: `total += loss` keeps every graph
#
# A training loop adds up its losses to print an average. The obvious `total += loss` adds
# *tensors*, so `total` is a result of every loss so far: its graph holds the nodes of every
# step for as long as `total` lives (and, in a loop that never calls backward, every tensor
# those nodes saved). The loop below takes 100 steps of gradient descent; `count_nodes` walks
# `total.grad_fn` without recursion (notebook 11) and counts the nodes it reaches.

# %%
def count_nodes(tensor):
    """How many nodes the graph behind tensor holds (each counted once)."""
    seen, to_visit = [], [tensor.grad_fn]
    while to_visit:
        node = to_visit.pop()
        if node is None or any(node is other for other in seen):
            continue
        seen.append(node)
        to_visit.extend(next_node for next_node, _ in node.next_functions)
    return len(seen)


def train(steps, keep_graphs):
    w = torch.tensor(1.0, requires_grad=True)
    total = 0
    for step in range(steps):
        x = step % 4 + 1.0
        loss = (w * x - 2 * x) ** 2  # trains w towards 2
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
        w.grad = None
        total += loss if keep_graphs else loss.item()
    return total


# %% [markdown]
# Count what one step adds to the graph behind `total`: the operations of its loss, and the
# `+=` itself.
#
# <details><summary>How many nodes will the graph behind <code>total</code> hold after 100
# steps? Click to reveal</summary>
#
# It holds 401. Each step's loss has three nodes (`MulBackward0`, `SubBackward0`,
# `PowBackward0`), and each `+=` adds one `AddBackward0`: four per step, plus `w`'s one
# `AccumulateGrad`, which every step shares. The graph grows with every step and is freed only
# when `total` is.
# </details>

# %%
total = train(100, keep_graphs=True)
print(total.grad_fn.name(), "nodes:", count_nodes(total))

# %%
assert count_nodes(total) == 4 * 100 + 1

# %% [markdown]
# `loss.item()` returns a Python float: nothing is kept, and the total is the same number.

# %%
plain_total = train(100, keep_graphs=False)
print(type(plain_total).__name__, round(plain_total, 4), round(total.item(), 4))

# %%
assert isinstance(plain_total, float) and abs(plain_total - total.item()) < 1e-3

# %% [markdown]
# (`total += loss.detach()` keeps a tensor without a graph.)
#
# ## `torch.no_grad()`: record nothing in a block
#
# `detach()` cuts one tensor out. `with torch.no_grad():` acts on a block of code: operations
# inside record no node, so a result such as `x * 2` does not require grad and has no `grad_fn`,
# even when `x` does. The loop above used `no_grad` for the update `w -= 0.01 * w.grad`, which
# must not become part of any graph. `torch.is_grad_enabled()` tells which mode you are in.

# %%
x = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    doubled = x * 2
    print(torch.is_grad_enabled(), doubled.requires_grad, doubled.grad_fn)
print(torch.is_grad_enabled(), (x * 2).requires_grad)

# %%
assert not doubled.requires_grad and doubled.grad_fn is None and torch.is_grad_enabled()

# %% [markdown]
# ## Your turn: a `no_grad` of your own
#
# Write `NoGrad`: `with NoGrad():` records nothing in its block, then leaves grad mode as it
# found it, on or off, even when the block raises. `torch.is_grad_enabled()` reads the mode,
# `torch.set_grad_enabled(mode)` sets it. `with` calls `__enter__()` as the block starts and
# `__exit__(kind, error, traceback)` as it ends, error or not; a true return would swallow the
# error.

# %% tags=["build"]
class NoGrad:
    """`with NoGrad():` records nothing in its block, then puts grad mode back as it was."""

    def __enter__(self):
        ### BEGIN SOLUTION
        self.before = torch.is_grad_enabled()  # this block's own: blocks can nest
        torch.set_grad_enabled(False)
        ### END SOLUTION

    def __exit__(self, kind, error, traceback):
        ### BEGIN SOLUTION
        torch.set_grad_enabled(self.before)  # returns None: an error in the block goes on
        ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import detach_and_no_grad as check

check.records_nothing(NoGrad)

# %% [markdown]
# Yours on the example above:

# %%
with NoGrad():
    doubled = x * 2
    print(torch.is_grad_enabled(), doubled.requires_grad)
print(torch.is_grad_enabled(), (x * 2).requires_grad)

# %%
assert not doubled.requires_grad and torch.is_grad_enabled()

# %% [markdown]
# And a tensor created inside the block, or changed in place there?
#
# <details><summary>What will the three lines print? Click to reveal</summary>
#
# `True True`, then `True True None`, then `MulBackward0 1`: none of them lost anything.
# "Records nothing" is not "everything inside stops requiring grad"; what is not a recorded
# operation keeps its flags:
#
# - a tensor *created* with `requires_grad=True` inside the block is a leaf that requires grad,
#   as you asked;
# - a tensor changed in place inside the block keeps what it had: a leaf stays a leaf that
#   requires grad (that is why an update under `no_grad` leaves `w` trainable), and a result
#   keeps its `grad_fn`: `y`'s graph still says "`y = w * 3`", although 1 was added to its
#   value. Only the version counter (notebook 08) records the change.
# </details>

# %%
w = torch.tensor(1.0, requires_grad=True)
y = w * 3
with torch.no_grad():
    created = torch.zeros(2, requires_grad=True)
    w -= 0.1  # an update, as in the loop above
    y += 1
print(created.requires_grad, created.is_leaf)
print(w.requires_grad, w.is_leaf, w.grad_fn)
print(y.grad_fn.name(), y._version)

# %%
assert created.requires_grad and w.requires_grad and w.is_leaf
assert y.grad_fn.name() == "MulBackward0" and y._version == 1

# %% [markdown]
# A *view* made inside the block (`w[:2]`, `w.view(3)`) of a tensor that requires grad keeps
# `requires_grad=True` too. Changing that view in place later, with grad mode back on, is
# ambiguous (should the change be recorded?), so PyTorch refuses it; inside `no_grad` it is
# allowed.

# %%
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    first_two = w[:2]
print(first_two.requires_grad, first_two.grad_fn)
try:
    first_two.mul_(2)
except RuntimeError as error:
    print(str(error).split(". ")[0])
with torch.no_grad():
    first_two.mul_(2)
print(w)

# %% [markdown]
# `no_grad` also works as a decorator, and `torch.enable_grad()` switches recording back on
# inside it:

# %%
@torch.no_grad()
def evaluate(t):
    return t * 2


with torch.no_grad(), torch.enable_grad():  # the inner one wins
    recorded = x * 2
print(evaluate(x).requires_grad, recorded.requires_grad)

# %%
assert not evaluate(x).requires_grad and recorded.requires_grad

# %% [markdown]
# `torch.inference_mode()` is a stricter `no_grad` for code that will never need gradients
# (serving a model): nothing is recorded inside either. PyTorch also marks every tensor made
# inside as an *inference tensor* (`t.is_inference()`), which raises an error if a recorded
# operation later saves it for backward.

# %%
with torch.inference_mode():
    served = x * 2
    print(torch.is_grad_enabled(), served.requires_grad, served.grad_fn)
print(torch.is_grad_enabled(), served.is_inference())

# %%
assert not served.requires_grad and torch.is_grad_enabled() and served.is_inference()

# %% [markdown]
# ## `model.eval()` and `no_grad()`
#
# `model.eval()` sets `model.training = False` in the module and all its submodules
# (`model.train()` sets it back to `True`); layers that behave differently in training read
# that flag. Dropout zeroes random entries while
# training and does nothing in evaluation; batch normalisation uses the batch's statistics while
# training and its running averages in evaluation. Below, a dropout-like layer with a fixed
# mask (so the output is the same every run).
#
# <details><summary>After <code>drop.eval()</code>, will <code>drop(x * 3)</code> have a
# <code>grad_fn</code>? Click to reveal</summary>
#
# Yes, `MulBackward0`: the values change (no entry is dropped), the recording does not.
# `eval()` says nothing to autograd; only `no_grad` stops it. Evaluation code needs both:
# `eval()` for the right values, `no_grad()` (or `inference_mode()`) for no graph.
# </details>

# %%
class FixedDropout(torch.nn.Module):
    """Dropout with a fixed mask: keeps entries 0 and 2, scaled by 2, while training."""

    def forward(self, t):
        if self.training:
            return t * torch.tensor([2.0, 0.0, 2.0, 0.0])
        return t


drop = FixedDropout()
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
print(drop.training, drop(x * 3))
drop.eval()
in_eval = drop(x * 3)
print(drop.training, in_eval)
with torch.no_grad():
    evaluated = drop(x * 3)
print(drop.training, evaluated)
drop.train()  # back to training, for the next step
print(drop.training)

# %%
assert in_eval.grad_fn is not None and evaluated.grad_fn is None and drop.training

# %% [markdown]
# ## `requires_grad_(False)`: freeze a leaf
#
# `t.requires_grad_(False)` switches tracking off for a leaf in place (`requires_grad_()`
# switches it on, notebook 01): that is how you *freeze* part of a model while fine-tuning the
# rest. No gradient is computed for it, and its `.grad` stays `None`.

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
w.requires_grad_(False)  # frozen
loss = (w * 3 + b).sum()
loss.backward()
print(w.grad, b.grad)

# %%
assert w.grad is None and b.grad.item() == 2.0

# %% [markdown]
# A result that needs no gradient at all cannot start a backward pass:

# %%
try:
    (w * 3).sum().backward()
except RuntimeError as error:
    print(error)

# %% [markdown]
# ## Summary
#
# - `detach()` gives the same values as a constant (same memory). Use it for a target computed
#   from the parameters being trained, or the gradient moves the target too.
# - `total += loss` keeps every step's graph alive; `loss.item()` keeps the number only.
# - `torch.no_grad()` records no operation in its block. A tensor created with
#   `requires_grad=True` still requires grad, an in-place change keeps flags and `grad_fn`, and
#   a view made inside must not be changed in place outside. `inference_mode()` is stricter.
# - `model.eval()` changes what layers compute (dropout, batch norm), not what autograd records.
# - `requires_grad_(False)` freezes a leaf: its `.grad` stays `None`.
#
# Exercises: [exercises/ex10_detach_and_no_grad.ipynb](../exercises/ex10_detach_and_no_grad.ipynb).
# Next: [11 · Inside the engine](11_inside_the_engine.ipynb).
