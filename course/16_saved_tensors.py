# %% [markdown]
# # 16 · Keeping less for backward: saved-tensor hooks and checkpointing
#
# Notebook 08 showed that an operation keeps some tensors for its backward (`MulBackward0`
# keeps its factors, `ExpBackward0` its output), and notebook 09 that `backward()` lets go of
# them once it has used them.
# Between the forward pass and the backward pass, those kept tensors are where most of a
# network's training memory goes: each layer holds on to what its backward will need. This
# notebook first looks at them as they are kept, then trades memory for time.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## A hook on what is kept
#
# `torch.autograd.graph.saved_tensors_hooks(pack, unpack)` is a `with` block. Inside it,
# every tensor an operation keeps for backward is first handed to `pack`, and whatever `pack`
# returns is stored instead. When backward needs the tensor, it calls `unpack` on what was
# stored. Here both functions hand the tensor straight back, after noting its shape.
# (`torch.autograd.graph.save_on_cpu()` is a ready-made pair that moves kept tensors off the
# GPU.)
#
# <details><summary>With only <code>w</code> requiring grad, how many tensors will
# <code>pack</code> see for <code>(x * w).sin().sum()</code>? Click to reveal</summary>
#
# Two. `MulBackward0` keeps `x`, which `w`'s gradient needs, and not `w`, since `x` gets no
# gradient. `SinBackward0` keeps its input. `sum` keeps only a shape, which is not a tensor.
# </details>

# %%
x = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t


def unpack(t):
    print("unpacked a tensor of shape", tuple(t.shape))
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * w).sin().sum()
print("packed:", packed)
y.backward()

# %%
assert len(packed) == 2

# %% [markdown]
# The same two tensors, drawn beside the nodes that keep them (on a fresh copy of the graph):

# %% tags=["minigrad-only"]
viz.draw((x * w).sin().sum(), view="backward", show_saved=True)

# %% [markdown]
# ## Your turn: counting what is kept
#
# Write `saved_numbers(make_loss)`: call `make_loss()` (a function with no arguments that
# builds a graph) inside a `saved_tensors_hooks` block, and return how many **numbers** all the
# tensors kept for its backward hold together (`t.numel()` each). Your `pack` must return the
# tensor it is given and your `unpack` what it receives, so that backward still works.

# %% tags=["build"]
def saved_numbers(make_loss):
    ### BEGIN SOLUTION
    sizes = []

    def pack(t):
        sizes.append(t.numel())
        return t

    def unpack(t):
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        make_loss()
    return sum(sizes)
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import saved_tensors as check

check.saved_numbers(saved_numbers)

# %% [markdown]
# Yours on a small network: three layers of `tanh(h @ W)`, a batch of 2 rows of 3 inputs, each
# weight 3 by 3. Every layer keeps what its matrix product needs (the input for `W`'s gradient;
# `W` too, once the input itself needs a gradient) and the output of its `tanh`.

# %%
weights = [torch.full((3, 3), 0.1 * (layer + 1), requires_grad=True) for layer in range(3)]
batch = torch.ones(2, 3)


def network(h):
    for W in weights:
        h = (h @ W).tanh()
    return h


kept = saved_numbers(lambda: network(batch).sum())
print(kept)

# %%
assert kept == 6 + 6 + (6 + 9 + 6) * 2  # layer 1 keeps batch and its tanh; 2 and 3 keep W too

# %% [markdown]
# ## Checkpointing
#
# *Checkpointing* trades time for memory: `torch.utils.checkpoint.checkpoint(block, h,
# use_reentrant=False)` gives what `block(h)` gives, and the same gradients, while the graph
# keeps less (PyTorch warns unless `use_reentrant` is passed, and recommends `False`).
# Backward still needs what `block`'s operations would have kept; think about where it can get
# that from. Here `block` is the first section's `(x * w).sin()` with an `exp()` after it
# (three tensors kept, without checkpointing), and it prints each time it runs.
#
# <details><summary>What will <code>pack</code> see this time, and how often will
# <code>block</code> run? Click to reveal</summary>
#
# One tensor, `block`'s input `x`; `block` runs twice, the second time inside `backward()`,
# after `x` is unpacked, to make again what its operations keep. The gradient is the same as
# without checkpointing.
# </details>

# %%
def block(t):
    print("block runs")
    return (t * w).sin().exp()


packed.clear()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    z = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False).sum()
print("packed:", packed)
w.grad = None
z.backward()
checkpointed_grad = w.grad
print("checkpointed:", checkpointed_grad)
w.grad = None
block(x).sum().backward()
print("plain:       ", w.grad)

# %%
assert packed == [(3,)] and torch.equal(checkpointed_grad, w.grad)

# %% [markdown]
# Your counter on the three-layer network, checkpointed as one block:

# %%
checkpointed = saved_numbers(
    lambda: torch.utils.checkpoint.checkpoint(network, batch, use_reentrant=False).sum())
print(kept, "numbers kept without checkpointing,", checkpointed, "with it")

# %%
assert checkpointed == batch.numel() < kept

# %% [markdown]
# Large models checkpoint each block of layers: memory then grows with the number of blocks
# rather than the number of operations, for the price of one more forward pass per block.
#
# ## Summary
#
# - Every tensor an operation keeps for backward goes through the `pack` of an active
#   `saved_tensors_hooks(pack, unpack)`; backward gets it back through `unpack`.
# - Which tensors are kept depends on which inputs need a gradient: `x * w` keeps `x` for
#   `w`'s gradient, and keeps `w` only when `x` needs one too.
# - `checkpoint(block, h, use_reentrant=False)` keeps only the block's input and runs the block
#   again during backward: the same gradient, less memory, more time.
#
# Exercises: [exercises/ex16_saved_tensors.ipynb](../exercises/ex16_saved_tensors.ipynb).
# Next: [17 · Forward mode](17_forward_mode.ipynb).
