# %% [markdown]
# # 11 · Inside the engine: how `backward()` fills `.grad`
#
# Ten notebooks have called `backward()`; this one opens it. You try a plausible recursive
# backward, write one that waits, then find yours in minigrad's engine.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% tags=["minigrad-only"]
import inspect

from minigrad.autograd import accumulate, engine
from minigrad.ops import pointwise

# %% [markdown]
# ## One node, one step of the chain rule
#
# Every `grad_fn` is a node you can call: give it the gradient of its output, it returns the
# gradient for each of its inputs, in the order of `next_functions` (a tuple, or the tensor
# itself when the node has one input). Take a graph where an intermediate is used twice (a
# *diamond*): $a = 3$, $b = a + a = 6$, $c = b \cdot b = 36$. By hand, $c = 4a^2$, so
# $dc/da = 8a = 24$.

# %%
a = torch.tensor(3.0, requires_grad=True)
b = a + a
c = b * b
print([(node.name(), index) for node, index in c.grad_fn.next_functions])

# %% [markdown]
# Both entries of `c`'s `next_functions` are `b`'s `AddBackward0`; the index says which output
# of that node the gradient belongs to (0: most nodes have one output). Calling `c`'s node with $1$
# (under `no_grad`: the result needs no graph of its own):
#
# <details><summary>What will <code>c.grad_fn(torch.tensor(1.0))</code> return? Click to
# reveal</summary>
#
# `(tensor(6.), tensor(6.))`: for a product, each input gets the incoming gradient times the
# *other* factor, and both factors are $b = 6$.
# </details>

# %%
with torch.no_grad():
    to_b = c.grad_fn(torch.tensor(1.0))
to_b

# %%
assert [g.item() for g in to_b] == [b.item(), b.item()]

# %% [markdown]
# So `b` receives two gradients, 6 and 6. Its `AddBackward0` must run **once**, with their sum
# 12, and send $12 \times 1$ along each of its two inputs, both `a`: $12 + 12 = 24$.

# %% tags=["minigrad-only"]
viz.draw(c)

# %% [markdown]
# ## A first attempt: recursion
#
# Whenever a gradient reaches a node, add it to what that node has received so far, run the
# node with the total, and recurse into its inputs. A node of class
# `AccumulateGrad` stands for a leaf (`node.variable`): there the total goes into `.grad`.

# %%
def naive_backward(node, grad, received):
    """Run `node` as soon as a gradient reaches it, with all it has received so far."""
    received[node] = received.get(node, 0) + grad
    if type(node).__name__ == "AccumulateGrad":
        node.variable.grad = received[node]
        return
    with torch.no_grad():
        grads = node(received[node])
    grads = grads if isinstance(grads, tuple) else (grads,)
    for (child, _), child_grad in zip(node.next_functions, grads):
        if child is not None and child_grad is not None:
            naive_backward(child, child_grad, received)


# %% [markdown]
# <details><summary>What will it leave in <code>a.grad</code>? Click to reveal</summary>
#
# `tensor(36.)`, not 24. The first 6 reaches `AddBackward0`, which runs and sends $6 + 6$ to
# `a`. The second 6 arrives; `AddBackward0` runs again with the total 12 and sends
# $12 + 12$ more. The first 6 has been passed on twice.
# </details>

# %%
naive_backward(c.grad_fn, torch.tensor(1.0), {})
print("naive:  ", a.grad)
a.grad = None
c.backward()
print("engine: ", a.grad)

# %%
assert a.grad.item() == 8 * a.item()  # 24, what backward() gives

# %% [markdown]
# The fix is in the *timing*: a node may run only once every gradient it will receive has
# arrived, then once, with their sum. (Running it once per arriving gradient also sums
# right, but its work grows with the number of *paths*, which doubles with every diamond.)
#
# Recursion has a second problem: Python stops it after about a thousand nested calls;
# graphs are often deeper. micrograd and torchviz have both had this bug:

# %%
t = torch.tensor(1.0, requires_grad=True)
deep = t
for _ in range(5000):
    deep = deep * 1.0
naive_outcome = "finished"
try:
    naive_backward(deep.grad_fn, torch.tensor(1.0), {})
except RecursionError as error:
    naive_outcome = type(error).__name__
print("naive:  ", naive_outcome)

# %%
assert naive_outcome == "RecursionError"

# %% [markdown]
# ## Your turn: a backward pass that waits
#
# How does a node know its gradients are all in? Count them first: the edges leading into a
# node are the gradients it will receive. Arriving gradients add up in the node's *buffer*
# and lower its count; at zero the node is *ready* and runs once, with its buffer. On a fresh
# diamond, 6 and 6 add up in `b`'s row ("6. + 6. = 12.") before `AddBackward0` runs:

# %% tags=["minigrad-only"]
a = torch.tensor(3.0, requires_grad=True)
b = a + a
c = b * b
viz.backward_steps(c)

# %% [markdown]
# Write `my_backward(root)`, which does what `root.backward()` does for a scalar `root`, on
# graphs like these, where every node has one output and sends each input a gradient of that
# input's shape (what the engine adds for other graphs comes after):
#
# ```python
# def my_backward(root):
#     # 1. Visit every node from root.grad_fn with a stack (a list, no recursion), counting
#     #    for each node the edges that lead into it (skip None entries of next_functions).
#     # 2. buffers = {root.grad_fn: torch.ones_like(root)}; ready = [root.grad_fn]
#     # 3. While a node is ready, take the one added last (ready.pop()) and its buffer:
#     #    - an AccumulateGrad adds the buffer into node.variable.grad, or stores a copy of
#     #      it, buffer.clone(), if .grad is None (the same buffer may reach another leaf);
#     #    - any other node runs, grads = node(buffer), under torch.no_grad(): one tensor, or
#     #      a tuple with one per input; each goes into its child's buffer, and a child whose
#     #      count falls to 0 is ready.
# ```
#
# Write it in the cell below, in place of its `raise NotImplementedError()`, run it, then
# run the checks. Until you do, the cells that use `my_backward` wait, and say so.

# %% tags=["build"]
def my_backward(root):
    ### BEGIN SOLUTION
    waiting = {root.grad_fn: 0}  # node -> how many gradients it will receive
    stack = [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child not in waiting:
                waiting[child] = 0
                stack.append(child)
            waiting[child] += 1

    buffers = {root.grad_fn: torch.ones_like(root)}  # node -> sum of what it received
    ready = [root.grad_fn]
    while ready:
        node = ready.pop()
        grad = buffers.pop(node)
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad
            continue
        with torch.no_grad():
            grads = node(grad)
        if not isinstance(grads, tuple):
            grads = (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is None:
                continue
            buffers[child] = buffers[child] + child_grad if child in buffers else child_grad
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
    ### END SOLUTION


# %% [markdown]
# The diamond and the deep chain, which defeated the recursion:

# %%
a = torch.tensor(3.0, requires_grad=True)
b = a + a
c = b * b
my_backward(c)
print("diamond:", a.grad)

t = torch.tensor(1.0, requires_grad=True)
deep = t
for _ in range(5000):
    deep = deep * 1.0
my_backward(deep)
print("chain:  ", t.grad)

# %%
assert a.grad.item() == 24 and t.grad.item() == 1

# %% [markdown]
# The check also compares your `.grad` with `backward()`'s on random graphs with reuse (some
# with a `.grad` already there), counts how often each node runs, and watches for recursion,
# even with Python's recursion limit raised.

# %% tags=["minigrad-only"]
from minigrad_course.checks import inside_the_engine as check

check.backward_pass(my_backward)

# %% [markdown]
# ## Your algorithm in minigrad's engine
#
# In minigrad a `GraphTask` holds one backward pass: the buffers, the counts (`dependencies`)
# and the ready nodes. Its main loop, `GraphTask.run`:

# %% tags=["minigrad-only"]
print(inspect.getsource(engine.GraphTask.run))

# %% [markdown]
# You should recognise it: take a ready node, run it with its buffer, add what it returns into
# its children's buffers, lower their counts, and queue those that reach zero. (`run_node` also
# runs hooks, notebook 07; saved tensors are freed, notebook 09.) The lines before
# `while ready:` and after `finally:` set up the pass (grad mode, numpy's warnings) and restore
# them.
#
# It also handles two graphs yours was not given. A node with several outputs
# (`unbind`'s) gets one buffer slot per output: `add_gradient` puts a gradient in slot
# `output_nr`, the second half of a `next_functions` pair, which your loop skipped as `_`.
# And a broadcast gradient, like a scalar bias's in `w * x + b`, is summed back to its input's
# shape (`validate`, from `run_node`) before it travels on. Gradients travel as numpy arrays,
# becoming tensors only for a hook or `.grad` (always, under notebook 15's `create_graph=True`).
#
# One difference: your `ready` is a plain list, theirs a *priority queue*. PyTorch numbers each
# node as it is created (its *sequence number*) and, of the ready nodes, runs the one created
# last, the closest to the output: backward retraces the forward in reverse, each node freeing
# what it saved right after it runs. `AccumulateGrad` gets the largest number of all, so a
# leaf's `.grad` is written as soon as it is complete. The order changes no result, only when
# memory returns and hooks fire.
#
# Below, the forward computes `exp`, `sin`, `cos`, then the product, and a hook on each result
# (notebook 07) notes the name of its `grad_fn` when that node's turn comes.
#
# <details><summary>In which order will backward run the four nodes? Click to
# reveal</summary>
#
# `['MulBackward0', 'CosBackward0', 'SinBackward0', 'ExpBackward0']`: the forward order,
# reversed. When `MulBackward0` has run, `CosBackward0` and `SinBackward0` are both ready, and
# `cos` was computed last. Your `ready.pop()` would differ: `SinBackward0` joined the list
# last, so it runs first, then `ExpBackward0`, and `CosBackward0` last. (With `ready.pop(0)`
# it would match PyTorch's here, by luck.)
# </details>

# %%
x = torch.tensor(1.0, requires_grad=True)
e = x.exp()
s = e.sin()
co = x.cos()
out = co * s
order = []
for t in (out, e, s, co):
    t.register_hook(lambda grad, name=t.grad_fn.name(): order.append(name))
out.backward()
print(order)

# %%
assert order == ["MulBackward0", "CosBackward0", "SinBackward0", "ExpBackward0"]

# %% [markdown]
# ## Inside one node: `Mul`
#
# In minigrad each operation is a `Function`: `forward(ctx, ...)` computes the result and saves
# on `ctx` what backward needs; `backward(ctx, grad)` returns one gradient per input.
# (PyTorch's built-in nodes are generated C++ classes doing the same job.) From
# `minigrad/ops/pointwise.py`:

# %% tags=["minigrad-only"]
print(inspect.getsource(pointwise.Mul))

# %% [markdown]
# Each gradient is `grad * other factor`, and the node it leaves in the graph is named after
# it: `MulBackward0` (`saved_names`: notebook 08's `_saved_self`, `_saved_other`). At the end
# of every path, `AccumulateGrad` does what your leaf step did, except that later gradients are
# added in place (`+=`): that is why a name taken for `.grad` moves with it (notebook 03's
# `held is w.grad`). It then runs notebook 07's post-accumulate-grad hooks. minigrad's `apply`
# and the function it calls, collapsed:

# %% tags=["minigrad-only", "hide-output"]
print(inspect.getsource(accumulate.AccumulateGrad.apply))
print(inspect.getsource(accumulate.accumulate_into))

# %% [markdown]
# ## Summary
#
# - Calling a `grad_fn` node is one step of the chain rule: its output's gradient in, its
#   inputs' out.
# - Running a node as soon as some gradient arrives double-counts through reused intermediates
#   (36 instead of 24 on the diamond), and recursion fails on deep graphs.
# - `backward()` counts the gradients each node will receive, adds them up in a buffer, and
#   runs the node once when its count reaches zero; `AccumulateGrad` adds into `.grad`. You
#   wrote that loop; minigrad's `GraphTask.run` is the same loop, with a buffer slot per
#   output and gradients summed back to their inputs' shapes.
# - Of the ready nodes, PyTorch runs the one created last, `AccumulateGrad` first of all.
#
# Exercises: [exercises/ex11_inside_the_engine.ipynb](../exercises/ex11_inside_the_engine.ipynb).
# Next: [12 · Your own operation](12_custom_functions.ipynb), a `Function` you write and
# `gradcheck` judges.
