# %% [markdown]
# # 08 · In-place operations and version counters
#
# `x += 1`, `x.add_(1)`, `x[0] = 5`: an *in-place* operation writes into an existing tensor
# instead of making a new one. It saves memory, and autograd mostly copes; but backward needs
# some values of the forward pass, and an overwritten one gives no gradient. Here are the two
# errors you can meet, how PyTorch notices (a version counter on every tensor), and the
# patterns that are always safe.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %% [markdown]
# ## A leaf that requires grad cannot be changed in place
#
# A leaf with `requires_grad=True` is a parameter, the tensor whose gradient you want. Add 1 to
# it in place:
#
# <details><summary>What will <code>w += 1</code> do? Click to reveal</summary>
#
# Raise a `RuntimeError`: *a leaf Variable that requires grad is being used in an in-place
# operation*. `w` is left as it was. (`Variable` is the wrapper autograd needed before PyTorch
# 0.4; today it is a deprecated name whose call returns a plain tensor, and the word stayed in
# the message.)
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
# Recorded, `w += 1` would turn `w` into the *result* of an addition, and the leaf you wanted a
# gradient for would survive only as an old value inside the graph. Every operation that writes
# into the values is refused:

# %%
for name, change in [("add_(1)", lambda t: t.add_(1)), ("mul_(2)", lambda t: t.mul_(2)),
                     ("zero_()", lambda t: t.zero_())]:
    try:
        change(w)
    except RuntimeError as error:
        print(f"w.{name}: {error}")

# %% [markdown]
# A trailing `_` is not what is refused: `requires_grad_()` and `detach_()` change flags, not
# values, so they are allowed (notebook 10 uses `w.requires_grad_(False)`). After either, the
# tensor is a leaf that no longer requires grad:

# %%
for name, change in [("requires_grad_(False)", lambda t: t.requires_grad_(False)),
                     ("detach_()", lambda t: t.detach_())]:
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    change(leaf)
    print(f"leaf.{name}: requires_grad={leaf.requires_grad}")

# %% [markdown]
# ## Every tensor counts its in-place changes
#
# Each tensor carries a counter, `_version`, that every in-place operation on it increases by
# one (the underscore marks it internal, in PyTorch too, but you may read it). An out-of-place
# operation makes a new tensor, at version 0.
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
# An operation's backward needs some values of the forward pass; its `grad_fn` keeps them
# (PyTorch calls them *saved tensors*):
#
# | operation | derivative | saves |
# | --- | --- | --- |
# | `a * b` | $\partial/\partial a = b$, $\partial/\partial b = a$ | both inputs |
# | `a.exp()` | $e^a$, the result itself | its **output** |
# | `a.sin()` | $\cos a$ | its input |
# | `a + b` | 1 and 1 | **nothing** |
#
# A tensor is saved with its version. If the version has changed when backward needs it,
# backward raises an error rather than compute with values the forward pass never used.
#
# `view="backward", show_saved=True` draws each saved tensor beside the node that keeps it,
# with its version then and now (`h * h` keeps `h` once per input):

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
# Change the result of `exp` in place, then ask for the gradient.
#
# <details><summary>Will <code>exponential.sum().backward()</code> work? Click to
# reveal</summary>
#
# No. `ExpBackward0` saved `exponential` at version 0, `mul_` moved it to 1, and the backward
# of `exp` would multiply by the doubled values. PyTorch raises instead.
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
# and both versions. The diagram draws the saved tensor in red, saved at version 0, now at 1.
# (The `mul_` is a node of its own, `MulBackward0`, which ran before the failure and freed what
# it saved.)

# %% tags=["minigrad-only"]
viz.draw(exponential, view="backward", show_saved=True)

# %% [markdown]
# Forward did not complain; backward fails only at the node that needs the overwritten value.
# Step by step, on a fresh copy: `SumBackward0` and `MulBackward0` (the `mul_`) run,
# `ExpBackward0` fails.

# %% tags=["minigrad-only"]
x = torch.tensor([1.0, 2.0], requires_grad=True)
exponential = x.exp()
exponential.mul_(2)
viz.backward_steps(exponential.sum())

# %% [markdown]
# ## Which changes break backward?
#
# It depends only on what was saved. An experiment: for each operation `out = op(h)`, change
# its input `h` or its output `out` in place, then run backward.

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
# Input changed: `h * h`, `h ** 2` and `h.sin()`, which saved `h` (`h * 3` saves only the 3:
# the gradient for `h` is 3). Output changed: `exp`, `sigmoid` and `relu`, whose derivatives
# come from their result ($\sigma' = \sigma(1-\sigma)$; ReLU's is 1 where the result is
# positive). `h + 1` and `h.sum()` save nothing: anything goes.
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
# When a change is allowed, the gradient is still right: the in-place operation is itself
# recorded (`y.add_(1)` gives `y` the `grad_fn` `AddBackward0`):

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.add_(1)
y.sum().backward()
print(y.grad_fn.name(), x.grad)

# %%
assert y.grad_fn.name() == "AddBackward0" and x.grad.tolist() == [2.0, 2.0]

# %% [markdown]
# When the changed tensor was saved as an *input*, the message names the operation that
# changed it last (here `Add`, the `add_`): that is now where the tensor comes from.

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
# ## Which line made the failing node? Anomaly detection
#
# The error names the node that failed (`MulBackward0`) but not the line of your program that
# made it, and a real model has many multiplications. Its hint says how to find out: turn on
# *anomaly detection*. While it is on, every node keeps the stack of the forward call that
# created it, and when a node fails in backward a warning prints that stack before the error.
# It slows everything down, so it is for debugging only; `set_detect_anomaly` used with `with`
# switches it off again at the end of the block.
#
# The warning's text holds file paths; the cell prints its first line and the source lines of
# the last two frames: the call into `forward`, then the line inside it.

# %%
import warnings


def forward(x):
    h = x * 2
    square = h * h  # saves h
    h.add_(1)
    return square.sum()


with torch.autograd.set_detect_anomaly(True, check_nan=False):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = forward(x)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            loss.backward()
        except RuntimeError as error:
            hint = str(error).split("Hint: ")[1]

lines = str(caught[0].message).splitlines()
print(lines[0])
# each frame is two lines: '  File "<path>", line N, in <function>' and its source line
sources = [line.strip() for above, line in zip(lines, lines[1:]) if above.startswith("  File")]
for source in sources[-2:]:
    print("   ", source)
print("Hint:", hint)

# %%
assert sources[-1] == "square = h * h  # saves h" and not torch.is_anomaly_enabled()

# %% [markdown]
# With anomaly detection on, the hint changes: the stack above the error shows where the node
# was made, and the tensor it saved was changed there or later (here by `h.add_(1)`).

# %% [markdown]
# ## `.data` hides changes from the check
#
# Old code sometimes changes `t.data` in place: the same memory without the history, and,
# unlike everything else, **not** sharing the version counter.
#
# <details><summary>What will <code>x.grad</code> be? Click to reveal</summary>
#
# `tensor([0., 0.])`, and no error. The true gradient, $e^x$, is about 2.7 and 7.4; zeroing
# `y.data` zeroed what `ExpBackward0` saved without moving the version counter, so backward
# used the new values unawares.
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
# Through `y.detach()`, which shares the version counter, the same change is caught:

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
# Use `detach()`, never `.data` (notebook 10 says more about `detach()`).
#
# ## Safe patterns
#
# **Updating parameters: `torch.no_grad()`.** Inside it nothing is recorded, so a leaf may be
# changed in place: this is how an optimizer's `step()` updates weights. The leaf stays a leaf;
# its version goes up.

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
# And if the update comes between building a loss and its backward?
#
# <details><summary>Build <code>loss</code> from <code>w</code>, update <code>w</code>, then call
# <code>loss.backward()</code>. What happens? Click to reveal</summary>
#
# An error: `PowBackward0` saved `w` at version 1, the update moved it to 2 (the message names
# no operation: `w` is a leaf). Hence a training loop runs the forward pass again at every
# step, from the new weights.
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
# **Change a copy: `clone()`.** `t.clone()` has its own memory *and* stays in the graph
# (`CloneBackward0`), so gradients flow through it. Change the copy; the saved original is
# untouched.

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
# **Or don't: `y = y + 1` instead of `y += 1`.** The out-of-place form makes a new tensor and
# moves the name to it, leaving the old one, and anything saved from it, alone. In-place
# operations rarely save enough memory to be worth it; PyTorch's documentation discourages
# them in most cases.
#
# ## Summary
#
# - An in-place change to the values of a leaf that requires grad raises *a leaf Variable that
#   requires grad is being used in an in-place operation*, except under `torch.no_grad()` (how
#   optimizers update weights).
# - Every tensor counts its in-place changes in `_version`; backward raises *one of the
#   variables needed for gradient computation has been modified by an inplace operation* when
#   a saved tensor's version has changed.
- `torch.autograd.set_detect_anomaly(True)` (or `with torch.autograd.detect_anomaly():`) makes
  a failing backward show the forward line that created the failing node.
# - What breaks backward depends on what was saved: `mul` its inputs, `exp`, `sigmoid`, `relu`
#   their output, `add` and `sum` nothing.
# - Safe: `torch.no_grad()` for updates, `clone()` before changing, or out-of-place `y = y + 1`.
#   `detach()` shares the version counter; `.data` does not, and hides the problem.
#
# Exercises: [exercises/ex08_inplace.ipynb](../exercises/ex08_inplace.ipynb).
# Next: [09 · Using a graph again](09_graphs_used_again.ipynb).
