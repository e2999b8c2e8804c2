# %% [markdown]
# # Exercises 11 · Inside the engine
#
# Companion to [notebook 11](../notebooks/11_inside_the_engine.ipynb). Here you write the pieces
# of `backward()` yourself, the order in which it visits the graph and the pass that fills
# `.grad`, and then predict what its nodes do one step at a time. Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.

# %%
import minigrad as torch
from minigrad_course.checks import inside_the_engine as check


# %% [markdown]
# ## 1 · Write it: the topological order
#
# `backward()` must run a node only after every node that sends it a gradient has run, so that
# the gradients arriving from different paths are all added up first. In notebook 11 you got
# that by counting each node's gradients; another way is to sort the nodes first, each before
# all the nodes it sends to: a *topological order*.
#
# Write `topological_order(root)` that returns every node reachable from the node `root` through
# `next_functions` (skip `None` entries), each once, with each node placed before all the nodes in
# its `next_functions`. One way: a depth-first walk that appends a node once all its children are
# done (a post-order), then reverse the list.
#
# Use an explicit stack instead of recursion: a graph can be far deeper than Python's recursion
# limit.

# %% grade_id="11-topological"
def topological_order(root):
    ### BEGIN SOLUTION
    order, visited = [], {root}
    stack = [(root, iter(root.next_functions))]
    while stack:
        node, children = stack[-1]
        for child, _ in children:
            if child is not None and child not in visited:
                visited.add(child)
                stack.append((child, iter(child.next_functions)))
                break  # finish the child first; this node's iterator resumes later
        else:  # every child done: the node goes after all of them
            stack.pop()
            order.append(node)
    order.reverse()
    return order
    ### END SOLUTION


# %%
check.topological(topological_order)
### BEGIN HIDDEN TESTS
check.topological_deep(topological_order)
### END HIDDEN TESTS

# %% [markdown]
# ## 2 · Write it: `backward()` by hand
#
# Write `backward_by_hand(y, order)` that does what `y.backward()` does for a scalar `y`, using
# `order(node)`, a topological order function like yours (the check passes a known-good one):
#
# - start with a gradient of `torch.ones_like(y)` for `y.grad_fn`;
# - visit the nodes in order; a node's gradient is the sum of everything sent to it;
# - calling a node, `node(grad)`, returns the gradients for its `next_functions`: one tensor, or a
#   tuple with one entry per input (`None` for inputs that need none);
# - a node whose class is `AccumulateGrad` is the end of a path to a leaf `node.variable`: add the
#   gradient into that leaf's `.grad` (or store it, if `.grad` is `None`) instead of calling it.
#
# Run the node calls under `torch.no_grad()`: the gradients themselves need no graph.

# %% grade_id="11-by-hand"
def backward_by_hand(y, order):
    ### BEGIN SOLUTION
    pending = {y.grad_fn: torch.ones_like(y)}  # node -> the sum of gradients sent to it
    for node in order(y.grad_fn):
        grad = pending.pop(node, None)
        if grad is None:
            continue
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad if leaf.grad is None else leaf.grad + grad
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None and child_grad is not None:
                pending[child] = pending[child] + child_grad if child in pending else child_grad
    ### END SOLUTION


# %%
check.by_hand(backward_by_hand)

# %% [markdown]
# ## 3 · Predict: one node, one step
#
# Calling a node by hand does one step of the chain rule, as notebook 11 did with `c.grad_fn`.
# Here two nodes are called by hand, the second with a gradient we made up, and then
# `backward()` runs the whole graph:
#
# ```python
# a = torch.tensor(2.0, requires_grad=True)
# b = torch.tensor(5.0, requires_grad=True)
# c = a * b
# d = c + a
# with torch.no_grad():
#     to_c, to_a = d.grad_fn(torch.tensor(1.0))
#     via_c_to_a, via_c_to_b = c.grad_fn(to_c * 3)
# print(to_c)
# print(via_c_to_a)
# print(via_c_to_b)
# d.backward()
# print(a.grad)
# ```
#
# Set `step_prints` to the four things it prints.

# %% grade_id="11-one-step"
### BEGIN SOLUTION
step_prints = [1.0, 15.0, 6.0, 6.0]
### END SOLUTION

# %%
check.one_step(step_prints)

# %% [markdown]
# ## Summary
#
# - A node called with the gradient of its output returns one gradient per input: one step of
#   the chain rule.
# - A node runs once, after every node that sends it a gradient, with the sum of what they
#   sent; leaves accumulate into `.grad`. Counting each node's gradients (the engine,
#   notebook 11) and walking a topological order (here) both guarantee it.
#
# Next: [exercises 12](ex12_custom_functions.ipynb).
