# %% [markdown]
# # 08 · In-place operations and version counters
#
# `x += 1`, `x.add_(1)`, `x[0] = 5`: an *in-place* operation writes into an existing tensor.
# Backward needs some values of the forward pass, and an overwritten one cannot give a gradient.
# Here are the errors, how PyTorch notices (you write its check), and the safe patterns.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## Changing a leaf in place
#
# A leaf with `requires_grad=True` is a parameter, the tensor whose gradient you want. Add 1 to
# it in place:
#
# <details><summary>What will <code>w += 1</code> do? Click to reveal</summary>
#
# Raise a `RuntimeError`: *a leaf Variable that requires grad is being used in an in-place
# operation* (`Variable` is PyTorch's old name for a tensor). `w` is left as it was: a leaf that
# requires grad cannot be changed in place.
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
# Recorded, `w += 1` would make `w` the result of an addition, no longer the leaf you wanted a
# gradient for. Every operation that writes into the values is refused:

# %%
for name, change in [("add_(1)", lambda t: t.add_(1)), ("mul_(2)", lambda t: t.mul_(2)),
                     ("zero_()", lambda t: t.zero_())]:
    try:
        change(w)
    except RuntimeError as error:
        print(f"w.{name}: {error}")

# %% [markdown]
# `requires_grad_()` and `detach_()` end in `_` but change flags, not values: allowed.

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
# one (internal, but readable).
#
# <details><summary>What will the last line print? Click to reveal</summary>
#
# `3 0`: three in-place changes to `t` (`+=`, `mul_`, an item assignment), and `u = t + 1` is a
# new tensor that was never changed: an out-of-place operation makes a new tensor, at version 0.
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
# An operation's `grad_fn` keeps the values its backward needs, its *saved tensors*:
#
# | operation | derivative | saves |
# | --- | --- | --- |
# | `a * b` | $\partial/\partial a = b$, $\partial/\partial b = a$ | `b` for `a`'s gradient, `a` for `b`'s |
# | `a.exp()` | $e^a$, the result itself | its **output** |
# | `a.sin()` | $\cos a$ | its input |
# | `a + b` | 1 and 1 | **nothing** |
#
# A tensor is saved together with its version at that moment.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 1  # an intermediate, so that we may change it in place
product = h * h
exponential = h.exp()
shifted = h + 1

# %% [markdown]
# Each `grad_fn` shows what it saved as `_saved_<name>`: `self` and `other` for the inputs (the
# very tensors), `result` for the output (a new tensor with its values). `AddBackward0` keeps
# only `alpha`, the number in `a + alpha * b`.

# %%
print(product.grad_fn._saved_self is h, product.grad_fn._saved_other is h)
print(exponential.grad_fn._saved_result)
print([name for name in dir(shifted.grad_fn) if name.startswith("_saved_")])

# %% [markdown]
# `show_saved=True` draws each saved tensor, its version then and now:

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
# of `exp` would multiply by the doubled values. Backward raises an error rather than compute
# with values the forward pass never used.
# </details>

# %%
exp_node = exponential.grad_fn  # ExpBackward0: mul_ is about to give exponential a new grad_fn
exponential.mul_(2)
print("version now:", exponential._version)
try:
    exponential.sum().backward()
except RuntimeError as error:
    print(error)

# %%
assert exponential._version == 1 and x.grad is None

# %% [markdown]
# Reading the saved tensor yourself runs the same check, and fails the same way:

# %%
try:
    exp_node._saved_result
except RuntimeError as error:
    print(str(error).split(":")[0])

# %% [markdown]
# The diagram draws the saved tensor in red: saved at version 0, now at 1. The failed pass
# already ran and freed `mul_`'s node.

# %% tags=["minigrad-only"]
viz.draw(exponential, view="backward", show_saved=True)

# %% [markdown]
# ## Your turn: a saved tensor
#
# Write the check a saved tensor makes. `Saved(t)` keeps `t` and its `_version` then;
# `unpack()` returns `t` itself while the version is unchanged, else raises PyTorch's
# `RuntimeError`: *one of the variables needed for gradient computation has been modified by
# an inplace operation: ... is at version 1; expected version 0 instead*.

# %% tags=["build"]
class Saved:
    """A tensor kept for backward, with the version it had when it was saved."""

    def __init__(self, tensor):
        ### BEGIN SOLUTION
        self.tensor, self.version = tensor, tensor._version
        ### END SOLUTION

    def unpack(self):
        ### BEGIN SOLUTION
        now = self.tensor._version
        if now != self.version:  # changed in place: the values saved are gone
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by "
                f"an inplace operation: is at version {now}; expected version {self.version} "
                "instead")
        return self.tensor
        ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import inplace as check

check.saved_versions(Saved)

# %% [markdown]
# Yours on the example above:

# %%
y = torch.tensor([1.0, 2.0]).exp()
kept = Saved(y)
same = kept.unpack() is y
print(same)
y.mul_(2)
words = None
try:
    kept.unpack()
except RuntimeError as error:
    words = str(error)
    print(words)

# %%
assert same and words is not None and "is at version 1; expected version 0" in words

# %% [markdown]
# ## Which changes break backward?
#
# It depends only on what was saved. For each `out = op(h)`, change `h` or `out` in place, then
# run backward.

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
# Input changed: `h * h`, `h ** 2` and `h.sin()`, which saved `h` (`h * 3` saves only the 3).
# Output changed: `exp`, `sigmoid` and `relu`, whose derivatives come from their result
# ($\sigma' = \sigma(1-\sigma)$; ReLU's is 1 where the result is positive). `h + 1` and `h.sum()`
# save nothing.
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
# When a saved *input* was changed, the message names the operation that changed it last
# (`Add`, the `add_`): where the tensor now comes from.

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
# ## Writing into elements
#
# `y[0] = value` changes `y` in place too. Write three values computed from a leaf `x` into
# zeros that do not require grad: $y_0 = x_0^2$, $y_1 = x_1^3$, $y_2 = x_1^2$, at $x = (1, 2)$.
#
# <details><summary>Does <code>y</code> require grad after the assignments, and what will
# <code>x.grad</code> be? Click to reveal</summary>
#
# Yes: `y` joins the graph, with `grad_fn` `CopySlices` ("some elements were overwritten") and
# version 3. `x.grad` is `[[2.], [16.]]`: $2x_0 = 2$, and `x[1]` feeds two elements, whose
# gradients add up: $3x_1^2 + 2x_1 = 12 + 4$.
# </details>

# %%
x = torch.tensor([[1.0], [2.0]], requires_grad=True)
y = torch.zeros(3, 1)
y[0] = x[0] ** 2
y[1] = x[1] ** 3
y[2] = x[1] ** 2
print(y.requires_grad, y.grad_fn.name(), y._version)
y.backward(gradient=torch.ones(3, 1))
print(x.grad)

# %%
assert y.requires_grad and not y.is_leaf and y._version == 3
assert x.grad.tolist() == [[2.0], [3 * 2.0**2 + 2 * 2.0]]

# %% [markdown]
# Each assignment is a `CopySlices` of the previous `y` and the new value:

# %% tags=["minigrad-only"]
x = torch.tensor([[1.0], [2.0]], requires_grad=True)
y = torch.zeros(3, 1)
y[0] = x[0] ** 2
y[1] = x[1] ** 3
y[2] = x[1] ** 2
viz.draw(y)

# %% [markdown]
# ## Which line made the failing node? Anomaly detection
#
# The error names the tensor that changed, not the node that needed it nor your line that made
# it. Its hint says how to find both: *anomaly detection*, a slow mode in which every node keeps
# the stack of its forward call and a failing node warns with it ("Error detected in
# MulBackward0"). The cell turns it on for one `with` block (`check_nan=False`: no NaN check)
# and prints the warning's first line and the stack's last two lines: your code.

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
# ## Changing `.data`
#
# Old code changes `t.data` in place: `t`'s memory, without the history.
#
# <details><summary>What will <code>x.grad</code> be? Click to reveal</summary>
#
# `tensor([0., 0.])`, and no error, instead of $e^x$: `.data` does **not** share the version
# counter, so zeroing `y.data` zeroed what `ExpBackward0` saved without the check noticing.
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
# Use `detach()`, never `.data`.
#
# ## Safe patterns
#
# **Updating parameters: `torch.no_grad()`.** Nothing inside it is recorded, so a leaf may be
# changed in place (how an optimizer's `step()` works). It stays a leaf; its version goes up.

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
# An error: `PowBackward0` saved `w` at version 1, the update moved it to 2. The loss was
# computed with the old `w`, so its gradient is stale anyway: this error is what reusing a
# graph after an update looks like.
# </details>

# %%
w.grad = None
loss = (w**2).sum()
with torch.no_grad():
    w -= 0.1 * 2 * w
try:
    loss.backward()
except RuntimeError as error:
    print(str(error).split(" Hint:")[0])

# %%
assert w.grad is None

# %% [markdown]
# **Change a copy: `clone()`.** It has its own memory and stays in the graph
# (`CloneBackward0`); the saved original is untouched.

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
# **Or don't: `y = y + 1` instead of `y += 1`.** A new tensor takes the name; the old one, and
# anything saved from it, is left alone. PyTorch's documentation discourages in-place
# operations in most cases: they rarely save enough memory.
#
# ## Summary
#
# - A leaf that requires grad cannot be changed in place, except under `torch.no_grad()`.
# - `_version` counts in-place changes; backward fails when a saved tensor's version changed.
#   `set_detect_anomaly(True)` shows the line to blame.
# - What was saved decides: `mul` its inputs; `exp`, `sigmoid`, `relu` their output; `add`,
#   `sum` nothing.
# - `y[0] = x[0] ** 2` puts `y` in the graph (`CopySlices`).
# - Safe: `no_grad()` for updates, `clone()`, or `y = y + 1`. `.data` hides changes; `detach()`
#   does not.
#
# Exercises: [exercises/ex08_inplace.ipynb](../exercises/ex08_inplace.ipynb).
# Next: [09 · Using a graph again](09_graphs_used_again.ipynb).
