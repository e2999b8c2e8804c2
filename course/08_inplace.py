# %% [markdown]
# # 08 · In-place operations and version counters
#
# `x += 1`, `x.add_(1)`, `x[0] = 5`: an *in-place* operation writes its result into the memory
# of an existing tensor instead of making a new one. It saves memory, and autograd mostly
# copes, but not always. Backward needs some of the values the forward pass computed; if you
# overwrite one of them, the gradient can no longer be computed. This notebook shows the two
# errors you can meet, how PyTorch notices (a version counter on every tensor), which
# operations keep which values, and the patterns that are always safe.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %% [markdown]
# ## A leaf that requires grad cannot be changed in place
#
# A leaf with `requires_grad=True` is a parameter: the tensor whose gradient you want. Try to
# add 1 to it in place.
#
# <details><summary>What will <code>w += 1</code> do? Click to reveal</summary>
#
# Raise a `RuntimeError`: *a leaf Variable that requires grad is being used in an in-place
# operation*. `w` is left as it was. (Before PyTorch 0.4, a tensor had to be wrapped in a
# `Variable` for autograd to record it; the class is gone, the word stayed in the message.)
# </details>

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w += 1
except RuntimeError as error:
    print(error)
print(w)

# %%
assert w.tolist() == [1.0, 2.0]

# %% [markdown]
# Why? If PyTorch recorded `w += 1`, `w` would become the *result* of an addition, no longer a
# leaf, and the tensor you created (whose gradient you wanted in `w.grad`) would exist only as
# an old value inside the graph. Every operation that writes into its values is refused the same
# way:

# %%
for name, change in [("add_(1)", lambda t: t.add_(1)), ("mul_(2)", lambda t: t.mul_(2)),
                     ("zero_()", lambda t: t.zero_())]:
    try:
        change(w)
    except RuntimeError as error:
        print(f"w.{name}: {error}")

# %% [markdown]
# A trailing `_` does not make a method an in-place operation on the values, though.
# `requires_grad_()` and `detach_()` change only the tensor's flags, so they are allowed on such a
# leaf (notebook 10 calls `w.requires_grad_(False)`). After either, the tensor is a leaf that
# no longer requires grad:

# %%
for name, change in [("requires_grad_(False)", lambda t: t.requires_grad_(False)),
                     ("detach_()", lambda t: t.detach_())]:
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    change(leaf)
    print(f"leaf.{name}: requires_grad={leaf.requires_grad}")

# %% [markdown]
# Changing parameters is what an optimizer does at every step, though. The way to do it is to
# switch recording off with `torch.no_grad()`: we come back to it at the end.
#
# ## Every tensor counts its in-place changes
#
# Each tensor carries a counter, `_version`, that every in-place operation on it increases by
# one. (The underscore says it is internal, in PyTorch too; it is still there to read.)
# Out-of-place operations make a new tensor, which starts at 0.
#
# <details><summary>What will the last line print? Click to reveal</summary>
#
# `3 0`: three in-place changes to `t` (`+=`, `mul_`, an item assignment), and `u = t + 1` is a
# new tensor that was never changed.
# </details>

# %%
t = torch.tensor([1.0, 2.0, 3.0])
print(t._version)
t += 1
t.mul_(2)
t[0] = 0.0
u = t + 1
print(t._version, u._version)

# %%
assert (t._version, u._version) == (3, 0)

# %% [markdown]
# ## What backward needs, it saves
#
# To compute its gradient, an operation's backward needs some of the values of the forward
# pass, and it keeps them in its `grad_fn` (PyTorch calls them *saved tensors*):
#
# | operation | derivative | saves |
# | --- | --- | --- |
# | `a * b` | $\partial/\partial a = b$, $\partial/\partial b = a$ | both inputs |
# | `a.exp()` | $e^a$, the result itself | its **output** |
# | `a.sin()` | $\cos a$ | its input |
# | `a + b` | 1 and 1 | **nothing** |
#
# When a tensor is saved, the version it had is saved with it. When backward unpacks it, it
# compares: a different version means the values backward would use are not the ones the
# forward pass used, and it stops with an error rather than return a wrong gradient.
#
# `view="backward", show_saved=True` draws the saved tensors next to the node that keeps them,
# with their version at saving and now. Here `x * x` keeps `x` twice (once per input), `exp`
# keeps its result, and the addition keeps nothing.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 1  # an intermediate, so that we may change it in place
product = h * h
exponential = h.exp()
shifted = h + 1

# %% tags=["minigrad-only"]
viz.draw(product, exponential, shifted, view="backward", show_saved=True)

# %% [markdown]
# ## Changing a value that backward saved
#
# Now change the result of `exp` in place, then ask for the gradient.
#
# <details><summary>Will <code>exponential.sum().backward()</code> work? Click to
# reveal</summary>
#
# No. `ExpBackward0` saved `exponential` at version 0, `mul_` moved it to version 1, and the
# backward of `exp` would multiply by the new (doubled) values. PyTorch raises instead.
# </details>

# %%
exponential.mul_(2)
print("version now:", exponential._version)
try:
    exponential.sum().backward()
except RuntimeError as error:
    print(error)

# %%
assert exponential._version == 1 and x.grad is None

# %% [markdown]
# The message names the tensor (`[torch.FloatTensor [2]]`), the operation whose output it is,
# and both versions. The diagram now shows the saved tensor in red: saved at version 0, now at
# version 1. (The `mul_` is recorded as a node of its own, `MulBackward0`; it ran before the
# failure and has already freed what it saved.)

# %% tags=["minigrad-only"]
viz.draw(exponential, view="backward", show_saved=True)

# %% [markdown]
# The forward pass ran without complaint: the error comes only when backward reaches the node
# that needs the overwritten value. Step by step, on a fresh copy, `SumBackward0` and
# `MulBackward0` (the `mul_`) run fine; `ExpBackward0` is where it fails.

# %% tags=["minigrad-only"]
x = torch.tensor([1.0, 2.0], requires_grad=True)
exponential = x.exp()
exponential.mul_(2)
viz.backward_steps(exponential.sum())

# %% [markdown]
# ## Which changes break backward?
#
# It depends only on what was saved. Here is an experiment: for each operation `out = op(h)`,
# change either its input `h` or its output `out` in place afterwards, then run backward.

# %%
def outcome(op, change):
    """'fine' if backward still works after changing op's input or output in place."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    out = op(h)
    (h if change == "input" else out).mul_(2)
    try:
        out.sum().backward()
        return "fine"
    except RuntimeError:
        return "error"


operations = {"h + 1": lambda h: h + 1, "h * 3": lambda h: h * 3, "h * h": lambda h: h * h,
              "h ** 2": lambda h: h**2, "h.sin()": lambda h: h.sin(),
              "h.exp()": lambda h: h.exp(), "h.sigmoid()": lambda h: h.sigmoid(),
              "h.relu()": lambda h: h.relu(), "h.sum()": lambda h: h.sum()}

# %% [markdown]
# <details><summary>Before running it: which rows will say "error", and in which column?
# Click to reveal</summary>
#
# Input changed: `h * h`, `h ** 2` and `h.sin()`, which saved `h`. (`h * 3` saves only the
# 3: the gradient for `h` is 3, it needs no `h`.) Output changed: `exp`, `sigmoid` and `relu`,
# whose derivatives are computed from their result ($\sigma' = \sigma(1-\sigma)$, and ReLU's is
# 1 where the result is positive). `h + 1` and `h.sum()` save nothing, so anything goes.
# </details>

# %%
table = {name: (outcome(op, "input"), outcome(op, "output")) for name, op in operations.items()}
print(f"{'op':12} {'change h':9} change out")
for name, (changed_input, changed_output) in table.items():
    print(f"{name:12} {changed_input:9} {changed_output}")

# %%
assert [n for n, (i, _) in table.items() if i == "error"] == ["h * h", "h ** 2", "h.sin()"]
assert [n for n, (_, o) in table.items() if o == "error"] == ["h.exp()", "h.sigmoid()",
                                                              "h.relu()"]
assert table["h + 1"] == table["h.sum()"] == ("fine", "fine")

# %% [markdown]
# So an in-place change right after an addition is fine, and one after `exp` is not. When the
# change is allowed, the gradient is still right, because the in-place operation itself is
# recorded in the graph (`y.add_(1)` gives `y` the `grad_fn` `AddBackward0`):

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.add_(1)
y.sum().backward()
print(y.grad_fn.name(), x.grad)

# %%
assert y.grad_fn.name() == "AddBackward0" and x.grad.tolist() == [2.0, 2.0]

# %% [markdown]
# When the changed tensor was saved as an *input* of a later operation, the message names the
# operation that changed it last (here `Add`, the `add_`), since that is now where the tensor
# comes from:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
square = h * h  # saves h
h.add_(1)
try:
    square.sum().backward()
except RuntimeError as error:
    print(error)

# %% [markdown]
# ## `.data` hides changes from the check
#
# Old code sometimes changes `t.data` in place. `.data` is the same memory without the
# history, and, unlike everything else, it does **not** share the version counter.
#
# <details><summary>What will <code>x.grad</code> be? Click to reveal</summary>
#
# `tensor([0., 0.])`, and no error. The derivative of $e^x$ is $e^x$, about 2.7 and 7.4 here;
# zeroing `y.data` zeroed what `ExpBackward0` saved, without moving the version counter, so
# backward could not notice and used the new values.
# </details>

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.data.mul_(0)
print("version:", y._version)
y.sum().backward()
print(x.grad)

# %%
assert y._version == 0 and x.grad.tolist() == [0.0, 0.0]

# %% [markdown]
# `y.detach()` also shares the memory without the history, but it shares the version counter
# too, so the same change through it is caught:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.detach().mul_(0)
print("version:", y._version)
try:
    y.sum().backward()
except RuntimeError as error:
    print(type(error).__name__, "(caught: y was changed through detach())")

# %%
assert y._version == 1 and x.grad is None

# %% [markdown]
# Use `detach()`, never `.data`. Notebook 10 says more about `detach()`.
#
# ## Safe patterns
#
# **Updating parameters: `torch.no_grad()`.** Inside `with torch.no_grad():` nothing is
# recorded, so an in-place change to a leaf is allowed: this is how an optimizer's `step()`
# updates weights. The leaf stays a leaf, and its version goes up.

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w**2).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
print(w, w.is_leaf, w._version)

# %%
assert torch.allclose(w.detach(), torch.tensor([0.8, 1.6])) and w.is_leaf and w._version == 1

# %% [markdown]
# One more order of events: the update comes between building a loss and its backward.
#
# <details><summary>Build <code>loss</code> from <code>w</code>, update <code>w</code>, then call
# <code>loss.backward()</code>. What happens? Click to reveal</summary>
#
# An error: the version counter protects you here too. `PowBackward0` saved `w` at version 1,
# and the update moved it to version 2. (`w` is a leaf, the output of no operation, so the
# message names no operation.) A loss must be computed again after each update, from the new
# weights; that is why a training loop runs the forward pass at every step.
# </details>

# %%
w.grad = None
loss = (w**2).sum()
with torch.no_grad():
    w -= 0.1 * 2 * w
try:
    loss.backward()
except RuntimeError as error:
    print(error)

# %%
assert w.grad is None

# %% [markdown]
# **Change a copy: `clone()`.** `t.clone()` is a new tensor with its own memory *and* it stays in
# the graph (`CloneBackward0`), so gradients flow through it. Change the copy; the saved
# original is untouched.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
bumped = y.clone()
print(bumped.grad_fn.name())
bumped.add_(1)
(y.sum() + bumped.sum()).backward()
print(y._version, x.grad)

# %%
assert y._version == 0
assert torch.allclose(x.grad, 2 * x.detach().exp())  # two paths, each e^x

# %% [markdown]
# **Or simply don't: `y = y + 1` instead of `y += 1`.** The out-of-place form makes a new tensor
# and moves the name to it; the old tensor, and anything saved from it, is left alone. The
# memory an in-place operation saves is rarely worth the trouble; PyTorch's documentation
# discourages them in most cases.
#
# ## Summary
#
# - An in-place operation on a leaf that requires grad raises *a leaf Variable that requires
#   grad is being used in an in-place operation*, unless it runs under `torch.no_grad()` (how
#   optimizers update weights).
# - Every tensor counts its in-place changes in `_version`. A saved tensor remembers its version;
#   if it changed, backward raises *one of the variables needed for gradient computation has been
#   modified by an inplace operation*.
# - Which changes break backward depends on what was saved: `mul` saves its inputs, `exp`,
#   `sigmoid`, `relu` their output, `add` and `sum` nothing.
# - Safe: `torch.no_grad()` for updates, `clone()` before changing, or out-of-place `y = y + 1`.
#   `detach()` shares the version counter; `.data` does not, and hides the problem.
#
# Exercises: [exercises/ex08_inplace.ipynb](../exercises/ex08_inplace.ipynb).
# Next: [09 · Using a graph again](09_graphs_used_again.ipynb).
