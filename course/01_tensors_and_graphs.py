# %% [markdown]
# # 01 · Tensors, leaves and `grad_fn`: the graph is built as you compute
#
# Before we can ask where `.grad` comes from, we need the thing it is computed on: the
# *computation graph*. PyTorch does not ask you to declare a graph. It records one while your
# code runs, one operation at a time, and only for tensors that asked to be tracked. This
# notebook looks at that record: `requires_grad`, `grad_fn`, `is_leaf`, and how they link up.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## A tensor, and the switch that turns tracking on
#
# A tensor is an array of numbers with a `dtype` and a `shape`. By default nothing is tracked:
# `requires_grad` is `False`.

# %%
x = torch.tensor(2.0)
print(x, x.dtype, x.shape, x.requires_grad)

# %% [markdown]
# `torch.Size([])` is the shape of a single number (a 0-dimensional tensor). Passing
# `requires_grad=True` flips the switch; the printed form then says so.

# %%
w = torch.tensor(3.0, requires_grad=True)
w

# %%
assert w.requires_grad and not x.requires_grad

# %% [markdown]
# ## Each operation leaves a `grad_fn`
#
# Multiply the two: `y = w * x`, one input tracked, one not.
#
# <details><summary>What will <code>y.requires_grad</code> print? Click to reveal</summary>
#
# `True`: one input (`w`) requires grad, so the result does too. A result is tracked as soon as
# *any* of its inputs is. And it remembers how it was made: its `grad_fn` is the node of the
# graph that will, during the backward pass, turn a gradient for `y` into gradients for its
# inputs.
# </details>

# %%
y = w * x
print(y)
print(y.requires_grad, y.grad_fn.name())

# %% [markdown]
# `MulBackward0` is PyTorch's name for the backward of a multiplication (the `0` numbers the
# variants of an operation). Printing a `grad_fn` object itself would show a memory address, so
# the course prints its `.name()`.

# %%
assert y.requires_grad
assert y.grad_fn.name() == "MulBackward0"

# %% [markdown]
# ## Leaves and non-leaves
#
# A tensor that no tracked operation produced is a **leaf**: you created it yourself. `w` and `x`
# are leaves; `y` is not. The rule is simply `is_leaf == (grad_fn is None)`.

# %%
for name, t in [("x", x), ("w", w), ("y", y)]:
    grad_fn = t.grad_fn.name() if t.grad_fn is not None else None
    print(f"{name}: is_leaf={t.is_leaf}, requires_grad={t.requires_grad}, grad_fn={grad_fn}")

# %%
assert x.is_leaf and w.is_leaf and not y.is_leaf
assert all(t.is_leaf == (t.grad_fn is None) for t in (x, w, y))

# %% [markdown]
# The diagram tells the three apart by colour: `w` is a leaf that requires grad, `x` a leaf that
# does not, and `y` is the output drawn, made by `MulBackward0`.

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# Leaves that require grad are the tensors whose `.grad` backward will fill: model parameters.
#
# Now an operation whose inputs all have `requires_grad=False`.
#
# <details><summary>Is <code>x * 5</code> a leaf? Click to reveal</summary>
#
# Yes. An operation on tensors that track nothing records nothing: `grad_fn` is `None`, and a
# tensor without `grad_fn` is a leaf, even though it was computed.
# </details>

# %%
untracked = x * 5
print(untracked, untracked.grad_fn, untracked.is_leaf)

# %%
assert untracked.is_leaf and untracked.grad_fn is None

# %% [markdown]
# ## Following the links backwards
#
# Each `grad_fn` points to the nodes of its inputs through `next_functions`, a tuple of
# `(node, index)` pairs (the index picks one of that node's outputs, for a node that has several;
# here it is always 0). A leaf that requires grad is represented by an `AccumulateGrad` node,
# whose job is to add the incoming gradient into the leaf's `.grad`. An input that does not
# require grad gets `None`: no gradient will be sent there.

# %%
for node, index in y.grad_fn.next_functions:
    print(node.name() if node is not None else None, index)

# %% [markdown]
# The first input of `w * x` is `w` (an `AccumulateGrad` node) and the second is `x` (`None`).
# `torch::autograd::AccumulateGrad` carries its C++ namespace in its name because it is one of
# the few nodes PyTorch writes by hand; the nodes generated for each operation, such as
# `MulBackward0`, carry none. The node knows its leaf through `.variable`:

# %%
accumulate_w = y.grad_fn.next_functions[0][0]
assert accumulate_w.variable is w
assert y.grad_fn.next_functions[1][0] is None

# %% [markdown]
# ## Your turn: the leaves a node feeds
#
# Write `leaves_fed(t)`: following each link of `t.grad_fn` in order, the leaf reached when
# the link is an `AccumulateGrad` node; a `None` link, or one to another operation's node,
# adds nothing. `leaves_fed(y)` is `[w]`.

# %% tags=["build"]
def leaves_fed(t):
    ### BEGIN SOLUTION
    leaves = []
    for node, _ in t.grad_fn.next_functions:
        if node is not None and node.name() == "torch::autograd::AccumulateGrad":
            leaves.append(node.variable)
    return leaves
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import tensors_and_graphs as check

check.feeds_leaves(leaves_fed)

# %% [markdown]
# Yours on `w * x + b`: `w` sits behind `MulBackward0`, one node further.

# %%
b = torch.tensor(1.0, requires_grad=True)
fed = leaves_fed(w * x + b)
print(len(fed), fed[0] is b)

# %%
assert len(fed) == 1 and fed[0] is b

# %% [markdown]
# This chain of `grad_fn` nodes is the graph PyTorch itself keeps; it is what torchviz draws.
# `view="backward"` draws it that way: arrows now point the way gradients will flow, from the
# output to `AccumulateGrad` and into the leaf. `x` sends nothing back, so it has no node.

# %% tags=["minigrad-only"]
viz.draw(y, view="backward")

# %% [markdown]
# ## The graph grows as you compute
#
# Chain more operations and the graph gets longer, one node per operation. Nothing is compiled
# ahead of time: PyTorch calls this *define-by-run*.

# %%
out = (w * x + 1).sin()
print(out)
print(out.grad_fn.name(), "<-", out.grad_fn.next_functions[0][0].name())

# %% [markdown]
# The results in the middle have no names. `w * x + 1` is still in memory: `SinBackward0`
# saved it (the derivative of $\sin$ needs its input), so it is drawn as an unnamed
# intermediate. `w * x` was used and then freed: it is the dashed box, with no values
# left to show. The `1` became a constant tensor, drawn in grey with its value like `x`. The
# operations stay in the graph either way.

# %% tags=["minigrad-only"]
viz.draw(out)

# %% [markdown]
# Because the graph is recorded as the code runs, ordinary Python decides its shape: an `if`
# records only the branch that ran.

# %%
def scaled(t, double):
    if double:
        return t * 2
    return t + t


print(scaled(w, True).grad_fn.name(), scaled(w, False).grad_fn.name())

# %%
assert scaled(w, True).grad_fn.name() == "MulBackward0"
assert scaled(w, False).grad_fn.name() == "AddBackward0"

# %% [markdown]
# Drawn together: the same function, two different records. (`viz.draw` accepts several
# outputs and draws them in one picture.)

# %% tags=["minigrad-only"]
doubled, added = scaled(w, True), scaled(w, False)
viz.draw(doubled, added)

# %% [markdown]
# A loop records one node per pass, so the data can decide how long the graph is. This function
# halves a tensor until all its elements are below 1:

# %%
import math


def halve_until_small(t):
    while t.abs().max() >= 1:
        t = t / 2
    return t


small = halve_until_small(w * 3)  # w * 3 is 9: four halvings, down to 0.5625
print(small)
node, names = small.grad_fn, []
while node is not None:
    names.append(node.name())
    node = node.next_functions[0][0] if node.next_functions else None
print(" <- ".join(names))

# %% [markdown]
# `halve_until_small` has one division in its code. Call it on `w * 100`, which is 300.
#
# <details><summary>How many <code>DivBackward0</code> nodes will its graph hold? Click to
# reveal</summary>
#
# Nine, one per pass of the loop that ran: the graph records what happened, not what the code
# says, and 300 needs nine halvings to get below 1 ($300 / 2^9 \approx 0.59$, while
# $300 / 2^8 \approx 1.17$).
# </details>

# %%
node, halvings = halve_until_small(w * 100).grad_fn, 0
while node.name() == "DivBackward0":
    halvings += 1
    node = node.next_functions[0][0]
print(halvings)

# %%
assert halvings == math.floor(math.log2(300)) + 1  # the least k with 300 / 2**k < 1

# %% [markdown]
# What does backward make of a loop? At $w = 3$, `halve_until_small(w * 3)` halved four times
# (above).
#
# <details><summary>What will <code>w.grad</code> be after
# <code>halve_until_small(w * 3).backward()</code>, at $w = 3$? Click to reveal</summary>
#
# `0.1875`, that is $3 / 2^4$: the gradient of the operations that ran. After $k$ halvings the
# function returned $3w / 2^k$, whose derivative is $3 / 2^k$. The loop's condition has no
# derivative: it only decides $k$, and as $w$ grows, $k$ jumps, and the slope with it. Below,
# three values of $w$ against the formula, with $k$ counted by hand.
# </details>

# %%
by_backward, by_formula = [], []
for value in [0.2, 3.0, 50.0]:
    v = torch.tensor(value, requires_grad=True)
    halve_until_small(v * 3).backward()
    k = 0
    while value * 3 / 2**k >= 1:
        k += 1
    by_backward.append(v.grad.item())
    by_formula.append(3 / 2**k)
    print(f"w = {value}: w.grad = {v.grad.item()}, 3 / 2**{k} = {3 / 2**k}")

# %%
assert by_backward == by_formula

# %% [markdown]
# Every run records a new graph: call the function again and you get new nodes, not the old ones
# reused. That is what lets a training loop change its model's path from one step to the next.
# After `backward()` (notebook 02) has used a graph, its saved values are freed, and the next
# forward pass records the next graph.

# %%
print(scaled(w, True).grad_fn is scaled(w, True).grad_fn)

# %% [markdown]
# ## Integer tensors cannot require grad
#
# Gradients are about small changes, and integers cannot change a little. Asking an integer
# tensor to require grad is an error (PyTorch's exact message):

# %%
try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as error:
    print(error)

# %% [markdown]
# Write `1.` instead of `1`, or pass `dtype=torch.float32`. A tensor you already have can be
# switched on in place with `requires_grad_()`:

# %%
a = torch.tensor([1.0, 2.0]).requires_grad_()
a

# %%
assert a.requires_grad and a.is_leaf

# %% [markdown]
# Only leaves can be switched: a computed tensor's `requires_grad` follows from its inputs.

# %%
try:
    y.requires_grad = False
except RuntimeError as error:
    print(error)

# %% [markdown]
# ## Summary
#
# - `requires_grad=True` (or `requires_grad_()`) asks PyTorch to track a tensor; only
#   floating-point (or complex) tensors can.
# - Every tracked operation records a `grad_fn` node (`MulBackward0`, `SinBackward0`...) that
#   links to its inputs' nodes through `next_functions`; leaves that require grad appear as
#   `AccumulateGrad`.
# - A leaf is a tensor with `grad_fn is None`: one you created, or one computed from untracked
#   tensors.
# - The graph is recorded while the code runs (define-by-run): an `if` records the branch that
#   ran, a loop one node per pass, and every run records a new graph.
# - The gradient through control flow is that of the operations that ran; the conditions only
#   choose them.
#
# Exercises: [exercises/ex01_tensors_and_graphs.ipynb](../exercises/ex01_tensors_and_graphs.ipynb).
# Next: [02 · Where a gradient comes from](02_grad_is_none.ipynb).
