# %% [markdown]
# # 11 · Inside the engine: how `backward()` fills `.grad`
#
# Ten notebooks have called `backward()` and read what it left in `.grad`. This one opens it.
# `backward()` does three things: it finds every node of the graph behind the output, puts them
# in an order where each node comes before the nodes it sends gradients to, and walks that
# order once, each node applying the chain rule to the *sum* of the gradients it received,
# until `AccumulateGrad` nodes add the results into `.grad`. We will see why the order and the
# sum matter (a plausible recursive version gets a wrong answer), and read how minigrad does it.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %% tags=["minigrad-only"]
import inspect

from minigrad.autograd import accumulate, engine
from minigrad.ops import pointwise

# %% [markdown]
# ## One node, one step of the chain rule
#
# Every `grad_fn` is a node you can call: give it the gradient of its output, it returns the
# gradient for each of its inputs, in the order of `next_functions`. That call is all a
# backward step is. Take a small graph where an intermediate is used twice (a *diamond*):
# $a = 3$, $b = a + a = 6$, $c = b \cdot b = 36$. By hand, $c = 4a^2$, so $dc/da = 8a = 24$.

# %%
a = torch.tensor(3.0, requires_grad=True)
b = a + a
c = b * b
print([(node.name(), index) for node, index in c.grad_fn.next_functions])

# %% [markdown]
# Both inputs of `c`'s `MulBackward0` are the same node, `b`'s `AddBackward0`. Calling it with
# $dc/dc = 1$ (under `no_grad`, since the result needs no graph of its own):
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
# ## A recursion that looks right and is not
#
# A natural first attempt: a recursive function that, whenever a gradient arrives at a node,
# adds it to what that node has received so far and runs the node with the total, then
# recurses into its inputs. A node whose class is `AccumulateGrad` stands for a leaf
# (`node.variable`): there it stores the total in `.grad`.

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
# The fix is not in the arithmetic but in the *timing*: a node may run only after every
# gradient it will ever receive has arrived. Then it runs exactly once. (Running it once per
# arriving gradient, with only that gradient, would give the right sum here, but its work would
# grow with the number of *paths* through the graph, which doubles with every diamond.)
#
# There is a second problem with recursion: Python stops it after about a thousand nested
# calls, and a graph is easily deeper than that (a recurrent network over a long sequence).
# micrograd and torchviz have both had exactly this bug. A chain of 5,000 multiplications:

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
deep.backward()
print("naive:  ", naive_outcome)
print("engine: ", t.grad)

# %%
assert naive_outcome == "RecursionError" and t.grad.item() == 1.0

# %% [markdown]
# ## The right order: topological
#
# An order of the nodes in which every node comes before all the nodes it sends gradients to is
# a *topological order*. Walk the nodes in that order and, by the time you reach a node, every
# node that could send it something has already run: its gradients are all in, and it runs once
# with their sum.
#
# One way to find it, without recursion: a depth-first walk with an explicit stack, which
# appends a node to a list once all of its inputs' nodes are done (a *post-order*), then
# reverse the list. Exercise 1 asks you to write it; minigrad's version is
# `minigrad.autograd.engine.topological_order`. On the diamond:

# %% tags=["minigrad-only"]
[node.name() for node in engine.topological_order([c.grad_fn])]

# %% [markdown]
# `MulBackward0` before `AddBackward0` before the leaf's `AccumulateGrad`: each node appears
# once, however many edges lead to it. The walk then keeps, per node, a buffer where arriving
# gradients are added up, and runs each node in order with its buffer. (PyTorch's engine gets
# the same guarantee slightly differently: it counts, for each node, how many gradients are
# still to come, and runs the node when the count reaches zero. minigrad does that too.)
#
# Step by step, on a fresh copy: `MulBackward0` sends 6 and 6 to `b`; they add up in `b`'s row
# ("6. + 6. = 12."), and `AddBackward0` runs once, with 12.

# %% tags=["minigrad-only"]
a = torch.tensor(3.0, requires_grad=True)
b = a + a
c = b * b
viz.backward_steps(c)

# %% [markdown]
# ## Reading the source: a node's backward and `AccumulateGrad`
#
# In minigrad, as in PyTorch, each operation is a `Function` with two static methods:
# `forward(ctx, ...)` computes the result and saves on `ctx` what backward will need;
# `backward(ctx, grad)` returns the gradient for each input. Here is multiplication, exactly
# as it is in `minigrad/ops/pointwise.py` (`_data` is the numpy array inside a tensor):

# %% tags=["minigrad-only", "nbval-ignore-output"]
print(inspect.getsource(pointwise.Mul))

# %% [markdown]
# Three details: it saves each input only when the *other* one needs a gradient (notebook 08:
# `h * 3` keeps only the 3); `ctx.needs_input_grad` says which inputs want one; and each
# gradient is `grad * other factor`, the chain rule for a product. The class is named `Mul`,
# and the node it leaves in the graph is named after it: `MulBackward0`.
#
# At the end of every path is `AccumulateGrad`. What it does with the gradient that reaches a
# leaf is the whole story of notebooks 02 to 04, and fits in four lines:

# %%
def accumulate_grad(leaf, grad):
    if leaf.grad is None:
        leaf.grad = grad.clone()  # the first gradient: a copy of its own (notebook 02)
    else:
        leaf.grad += grad  # every later one: added in place (notebooks 03 and 04)


# %% [markdown]
# Fed the gradients that two backward passes would send, it leaves what they leave:

# %%
leaf = torch.tensor([1.0, 2.0], requires_grad=True)
accumulate_grad(leaf, torch.tensor([0.5, 0.5]))
accumulate_grad(leaf, torch.tensor([1.0, -1.0]))
print(leaf.grad)

leaf.grad = None
(leaf * 0.5).sum().backward()
(leaf * torch.tensor([1.0, -1.0])).sum().backward()
print(leaf.grad)

# %% [markdown]
# The copy matters: storing `grad` itself would let a later `+=` change a tensor that something
# else still holds. In-place `+=` is why `zero_()` resets `.grad` and why a tensor you took from
# `.grad` earlier changes under you (notebook 03).
#
# minigrad's real version, `accumulate_into` in `minigrad/autograd/accumulate.py`, follows the
# same rule and adds two cases: a non-leaf kept by `retain_grad()`, and `create_graph=True`
# (notebook 09), where the sum is itself recorded. Its source is stored below, collapsed: click
# the bar to read it.

# %% tags=["minigrad-only", "nbval-ignore-output", "hide-output"]
print(inspect.getsource(accumulate.accumulate_into))

# %% [markdown]
# ## Summary
#
# - A `grad_fn` node is callable: gradient of its output in, gradients of its inputs out (one
#   step of the chain rule).
# - `backward()` puts the nodes in topological order (without recursion), runs each node once
#   with the sum of the gradients it received, and ends in `AccumulateGrad`, which stores a copy
#   of the first gradient in `.grad` and `+=` adds every later one.
# - Running a node as soon as some gradient arrives double-counts through reused intermediates
#   (`b = a + a; c = b * b` gives 36 instead of 24), and recursion fails on deep graphs.
# - Each operation is a `Function` whose `backward(ctx, grad)` returns one gradient per input;
#   the node it leaves in the graph is named after it (`Mul` gives `MulBackward0`).
#
# Exercises: [exercises/ex11_inside_the_engine.ipynb](../exercises/ex11_inside_the_engine.ipynb).
# Next: [12 · Your own operation](12_custom_functions.ipynb), a `Function` you write and
# `gradcheck` judges.
