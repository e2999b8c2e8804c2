# %% [markdown]
# # Exercises 16 · Keeping less for backward
#
# Companion to [notebook 16](../notebooks/16_saved_tensors.ipynb): what a graph keeps for
# backward, seen through `saved_tensors_hooks`. Replace each `# YOUR CODE HERE` with your
# answer, run the cell, then run the check below it.

# %%
import minigrad as torch
from minigrad_course.checks import saved_tensors as check

# %% [markdown]
# ## 1 · Predict: how many numbers are kept
#
# Each program adds up the sizes of the tensors its graph keeps for backward: `pack` notes
# `t.numel()` (the `or t` hands the tensor back), `unpack` returns what it gets.
#
# ```python
# x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# sizes = []
# with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
#                                                lambda t: t):
#     y = (x * x).sum()
# print(sum(sizes))
# ```
#
# ```python
# x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# sizes = []
# with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
#                                                lambda t: t):
#     y = (x.exp() + x).sum()
# print(sum(sizes))
# ```
#
# ```python
# X = torch.ones(2, 3, requires_grad=True)
# W = torch.ones(3, 4)
# sizes = []
# with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
#                                                lambda t: t):
#     y = (X @ W).sum()
# print(sum(sizes))
# ```
#
# ```python
# x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# sizes = []
# with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
#                                                lambda t: t):
#     with torch.no_grad():
#         y = (x * x).sum()
# print(sum(sizes))
# ```
#
# Set `kept_prints` to the four numbers they print, in order.

# %% grade_id="16-kept"
### BEGIN SOLUTION
kept_prints = [6, 3, 12, 0]
### END SOLUTION

# %%
check.kept(kept_prints)

# %% [markdown]
# ## 2 · Predict: how often a checkpointed block runs
#
# ```python
# runs = []
#
#
# def block(t):
#     runs.append(1)
#     return (t * t).sin()
#
#
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False).sum()
# print(len(runs))
# y.backward()
# print(len(runs))
# ```
#
# Set `runs_prints` to the two numbers it prints.

# %% grade_id="16-runs"
### BEGIN SOLUTION
runs_prints = [1, 2]
### END SOLUTION

# %%
check.block_runs(runs_prints)


# %% [markdown]
# ## 3 · Write it: kept somewhere else
#
# `pack` need not return a tensor: whatever it returns is what the graph keeps, and backward
# hands exactly that to `unpack`, which must turn it back into the tensor. That is how
# `save_on_cpu()` works, and how tensors can be kept on disk. Write `kept_in_store(make_loss)`:
# call `make_loss()` inside a `saved_tensors_hooks` block whose `pack` puts each tensor it is
# given into a dict, `store`, under a new key and returns only the key, and whose `unpack`
# looks the key up. Return `(loss, store)`, the loss `make_loss()` returned and the dict.

# %% grade_id="16-store"
def kept_in_store(make_loss):
    ### BEGIN SOLUTION
    store = {}

    def pack(t):
        key = len(store)
        store[key] = t
        return key

    def unpack(key):
        return store[key]

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = make_loss()
    return loss, store
    ### END SOLUTION


# %%
check.kept_in_store(kept_in_store)

# %% [markdown]
# ## Summary
#
# - An operation keeps, for backward, what the gradients of its inputs that need one are made
#   from: `x * x` keeps `x` twice, `X @ W` keeps only `W` when only `X` needs a gradient.
# - Under `torch.no_grad()` nothing is recorded, so nothing is kept.
# - A checkpointed block runs again in backward, to make what it did not keep.
# - What `pack` returns is what the graph keeps; `unpack` turns it back into the tensor.
#
# Next: [exercises 17](ex17_forward_mode.ipynb).
