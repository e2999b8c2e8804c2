# %% [markdown]
# # Exercises 01 · Tensors, leaves and `grad_fn`
#
# Companion to [notebook 01](../notebooks/01_tensors_and_graphs.ipynb). Each exercise is a cell
# that says `# YOUR CODE HERE`: replace its two lines with your answer, run it, then run the check
# cell below it. A check prints a line starting with ✓, or says what it expected and where to look.
#
# Predict-the-output exercises show code in a box: do not run it, read it and write down what it
# prints. The check runs that very code and compares.
#
# Grade the whole notebook from a terminal, in this notebook's folder, with
# `python -m minigrad_course.grade ex01_tensors_and_graphs.ipynb`.

# %%
import minigrad as torch
from minigrad_course.checks import tensors_and_graphs as check

# %% [markdown]
# ## 1 · Predict: who is a leaf, who requires grad?
#
# ```python
# a = torch.tensor(2.0, requires_grad=True)
# b = torch.tensor(3.0)
# c = a * b
# d = c + b
# e = b * 2
# for t in (a, b, c, d, e):
#     print(t.is_leaf)
#     print(t.requires_grad)
# ```
#
# The loop prints ten booleans. Set `leaf_predictions` to the list of the ten, in order
# (`a.is_leaf`, `a.requires_grad`, `b.is_leaf`, ...).

# %% grade_id="01-leaves"
### BEGIN SOLUTION
leaf_predictions = [True, True, True, False, False, True, False, True, True, False]
### END SOLUTION

# %%
check.leaves(leaf_predictions)

# %% [markdown]
# ## 2 · Predict: walking `next_functions`
#
# Every result that requires grad has a `grad_fn`: the node that will send its gradient back.
# The node's `next_functions` lists, for each input of the operation, the node that handles that
# input (or `None` for an input that needs no gradient, such as a plain number).
#
# ```python
# x = torch.tensor(3.0, requires_grad=True)
# y = (x * 2 + 1) ** 2
# node = y.grad_fn
# while node is not None:
#     print(node.name())
#     node = node.next_functions[0][0] if node.next_functions else None
# ```
#
# Set `chain_names` to the list of names it prints, as strings.

# %% grade_id="01-chain"
### BEGIN SOLUTION
chain_names = ["PowBackward0", "AddBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"]
### END SOLUTION

# %%
check.grad_fn_chain(chain_names)

# %% [markdown]
# ## 3 · Write it: build this graph
#
# Here is a graph, drawn the way the course draws every graph: boxes are tensors, ovals are
# operations. Two leaves `a` and `b` that require grad go in, one tensor `out` comes out.

# %%
check.show_target()


# %% [markdown]
# Write `build(a, b)` so that it returns `out` computed exactly as pictured: the same
# operations, applied to the same inputs. If the check fails, it draws your graph next to the
# expected one.

# %% grade_id="01-build"
def build(a, b):
    ### BEGIN SOLUTION
    return (a * b + b) ** 2
    ### END SOLUTION


# %%
check.build_the_graph(build)


# %% [markdown]
# ## 4 · Write it: every node that `backward()` will visit
#
# `backward()` starts at `t.grad_fn` and follows `next_functions` until it runs out of nodes.
# Write `reachable_nodes(t)` that returns the list of every node reachable from `t.grad_fn`
# (including `t.grad_fn` itself), each exactly once, in **breadth-first** order: first
# `t.grad_fn`, then the nodes in its `next_functions` in order, then theirs, and so on. Skip the
# `None` entries. A leaf has no `grad_fn`, so nothing is reachable from it: return `[]`.
#
# Use a list as a queue rather than recursion: graphs can be thousands of operations deep, far
# deeper than Python lets a function call itself.

# %% grade_id="01-walk"
def reachable_nodes(t):
    ### BEGIN SOLUTION
    order, seen = [], set()
    queue = [t.grad_fn] if t.grad_fn is not None else []
    for node in queue:  # the queue grows while the loop walks it
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        queue.extend(child for child, _ in node.next_functions if child is not None)
    return order
    ### END SOLUTION


# %%
check.walk(reachable_nodes)
### BEGIN HIDDEN TESTS
check.walk_deep(reachable_nodes)
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - A tensor you create is a leaf; a result is a leaf too when no input required grad.
# - `requires_grad` spreads from inputs to results; `grad_fn` records the operation.
# - `next_functions` links the nodes backwards, down to an `AccumulateGrad` per leaf.
#
# Next: [exercises 02](ex02_grad_is_none.ipynb).
