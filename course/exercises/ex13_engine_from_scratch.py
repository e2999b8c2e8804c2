# %% [markdown]
# # Exercises 13 · An engine of your own
#
# Companion to [notebook 13](../notebooks/13_engine_from_scratch.ipynb). Your engine's graph
# was made of your tensors; here the graphs are plain data, dicts and lists of names, and you
# write what the engine does with them: who gets a `.grad`, how much work a pass that runs a
# node once per arriving gradient would do, and a backward pass over a *tape*. Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.

# %%
import numpy as np

import minigrad as torch
from minigrad_course.checks import engine_from_scratch as check


# %% [markdown]
# ## 1 · Predict: which tensors get a `.grad`, and of which shape
#
# ```python
# x = torch.tensor([[1.0, 1.0], [-2.0, 0.0], [0.5, 0.5]])
# w = torch.tensor([[1.0], [2.0]], requires_grad=True)
# b = torch.tensor(0.5, requires_grad=True)
# u = torch.tensor([1.0, 1.0], requires_grad=True)
# loss = (x @ w + b).relu().sum()
# loss.backward()
# print(w.grad)
# print(b.grad)
# print(x.grad)
# print(u.grad)
# ```
#
# Set `grad_prints` to the four things it prints, in order: a number, a list of numbers (a
# nested list for a 2-D tensor) or `None`.

# %% grade_id="13-grad-prints"
### BEGIN SOLUTION
grad_prints = [[[1.5], [1.5]], 2.0, None, None]
### END SOLUTION

# %%
check.grad_prints(grad_prints)

# %% [markdown]
# ## 2 · Write it: the work of a pass that does not wait
#
# A backward pass that runs a node each time a gradient reaches it, instead of once with their
# sum, runs it once for every *path* from the root to it; notebook 11's recursion did. Here a
# graph is a dict: each node's name maps to the list of its inputs' names, an input twice when
# the node uses it twice (`c = b + b`), and `[]` for a leaf:
#
# ```python
# {"loss": ["c", "b"], "c": ["b", "b"], "b": ["a", "w"], "a": [], "w": []}
# ```
#
# Here `b` has 3 paths from `loss` (one direct, two through `c`), and `a` and `w` 3 each.
#
# Write `paths_from(inputs_of, root)`, which returns a dict with the number of paths from
# `root` to each node it reaches (`root` itself: 1). Count paths as the lesson's pass sends
# gradients: a node's number is the sum of the numbers of the nodes that use it, once per use,
# complete once all of those are done. (It *is* the gradient, when every local derivative
# is 1.) No recursion: the check tries a chain of 3,001 nodes, and 60 stacked diamonds,
# $2^{60}$ paths, too many to walk one by one.

# %% grade_id="13-paths"
def paths_from(inputs_of, root):
    ### BEGIN SOLUTION
    waiting = {root: 0}  # node -> how many uses of it are still to be done
    stack = [root]
    while stack:
        for child in inputs_of[stack.pop()]:
            if child not in waiting:
                waiting[child] = 0
                stack.append(child)
            waiting[child] += 1
    paths, ready = {root: 1}, [root]
    while ready:
        node = ready.pop()
        for child in inputs_of[node]:
            paths[child] = paths.get(child, 0) + paths[node]
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
    return paths
    ### END SOLUTION


# %%
check.paths(paths_from)
### BEGIN HIDDEN TESTS
check.paths_deep(paths_from)
### END HIDDEN TESTS

# %% [markdown]
# ## 3 · Write it: backward over a tape
#
# Your engine found its order by counting. Another way to record a computation is a *tape*:
# the list of the operations in the order they ran (TensorFlow's `GradientTape` keeps one). A
# value is made before any step uses it, so walking the tape from its end visits each step
# after every step that uses its result: no counting needed. A tape here is a list of steps
# `(out, op, ins)`, with `op` one of `"add"`, `"mul"`, `"matmul"`, `"relu"` and `"sum"`:
#
# ```python
# tape = [("h", "matmul", ("x", "w")), ("z", "add", ("h", "b")),
#         ("r", "relu", ("z",)), ("loss", "sum", ("r",))]
# ```
#
# Write `tape_backward(tape, values, wrt)`. `values` maps every name (inputs and each step's
# `out`) to its numpy array, as the forward pass computed it; the last step's `out` is the
# loss, a scalar. Return a dict with, for each name in `wrt`, the gradient of the loss with
# respect to it, an array of its shape, or `None` when the loss does not depend on it
# (as `torch.autograd.grad(..., allow_unused=True)` gives). The rules are the lesson's, with
# broadcast inputs summed back to their shapes; `matmul` takes two 2-D arrays. Leave `values`
# as it is.

# %% grade_id="13-tape"
def tape_backward(tape, values, wrt):
    ### BEGIN SOLUTION
    def unbroadcast(grad, shape):
        while grad.ndim > len(shape):
            grad = grad.sum(axis=0)
        for axis, size in enumerate(shape):
            if size == 1:
                grad = grad.sum(axis=axis, keepdims=True)
        return grad

    grads = {tape[-1][0]: np.ones_like(values[tape[-1][0]])}
    for out, op, ins in reversed(tape):
        if out not in grads:  # the loss does not use this step
            continue
        grad = grads[out]
        data = [values[name] for name in ins]
        if op == "add":
            sent = [grad, grad]
        elif op == "mul":
            sent = [grad * data[1], grad * data[0]]
        elif op == "matmul":
            sent = [grad @ data[1].T, data[0].T @ grad]
        elif op == "relu":
            sent = [grad * (data[0] > 0)]
        else:  # "sum"
            sent = [grad * np.ones_like(data[0])]
        for name, value, g in zip(ins, data, sent):
            g = unbroadcast(g, value.shape)
            grads[name] = grads[name] + g if name in grads else g
    return {name: grads.get(name) for name in wrt}
    ### END SOLUTION


# %%
check.tape(tape_backward)
### BEGIN HIDDEN TESTS
check.tape_long(tape_backward)
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - Only leaves that require grad and that the loss uses get a `.grad`; a broadcast input's
#   is summed back to its shape.
# - A pass that runs a node once per arriving gradient does work for every path, and paths
#   double with every diamond; waiting for all of a node's gradients does each node once.
# - A tape is already in order: walked from its end, it is a backward pass without counting.
#
# Next: [exercises 14](ex14_capstone.ipynb).
