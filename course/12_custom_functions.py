# %% [markdown]
# # 12 · Your own operation: `torch.autograd.Function` and `gradcheck`
#
# Notebook 11 read minigrad's `Mul`: a class with a static `forward` that computes and saves,
# and a static `backward` that turns the gradient of the output into one gradient per input.
# Every operation in minigrad, and every built-in one in PyTorch, has that shape, and you can
# write one yourself: for a faster backward, a numerically safer one, or a gradient that is
# deliberately not the true derivative. This notebook writes one, links it into a graph, and
# then checks its backward the way PyTorch's own operations are checked, against finite
# differences with `torch.autograd.gradcheck`.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# %% [markdown]
# ## A `Function` of our own: the length of a vector
#
# Take $h(a, b) = \sqrt{a^2 + b^2}$, the length of the vector $(a, b)$, whose partial
# derivatives are $a/h$ and $b/h$. Backward needs `a`, `b` and the result, so forward
# saves all three with `ctx.save_for_backward` and backward reads them from
# `ctx.saved_tensors`.

# %%
class Hypot(torch.autograd.Function):
    """h = sqrt(a² + b²); dh/da = a / h, dh/db = b / h."""

    @staticmethod
    def forward(ctx, a, b):
        h = (a * a + b * b).sqrt()
        ctx.save_for_backward(a, b, h)
        return h

    @staticmethod
    def backward(ctx, grad_output):
        a, b, h = ctx.saved_tensors
        return grad_output * a / h, grad_output * b / h  # one gradient per input of forward


# %% [markdown]
# Call it with `.apply`, never `forward` directly: `apply` runs `forward` without recording
# its inside, then links one node, `HypotBackward`, into the graph.

# %%
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
length = Hypot.apply(a, b)
length

# %% [markdown]
# The new operation is one node in the graph, holding its three saved tensors, like any
# built-in one:

# %% tags=["minigrad-only"]
viz.draw(length, view="backward", show_saved=True)

# %% [markdown]
# <details><summary>What will <code>a.grad</code> and <code>b.grad</code> be after
# <code>length.backward()</code>? Click to reveal</summary>
#
# $3/5 = 0.6$ and $4/5 = 0.8$: `HypotBackward` receives 1 and returns `(1 * 3 / 5, 1 * 4 / 5)`.
# </details>

# %%
length.backward()
print(a.grad, b.grad)

# %%
assert length.grad_fn.name() == "HypotBackward"
assert torch.allclose(a.grad, torch.tensor(0.6)) and torch.allclose(b.grad, torch.tensor(0.8))

# %% [markdown]
# ## Checking a backward with `gradcheck`
#
# One pair of numbers proves little. `torch.autograd.gradcheck(fn, inputs)` compares the
# Jacobian your backward implies with one estimated by finite differences,
# $(f(x + \varepsilon) - f(x - \varepsilon)) / 2\varepsilon$, for every element of every input.
# Give it `float64` inputs. On `float32` ones it warns that the check will likely fail, and it
# does: the rounding error of the difference swamps the check, so even the correct backward of
# `exp` is reported as a mismatch. It returns `True`, or raises an error that shows both
# Jacobians.

# %%
inputs = (torch.tensor([3.0, 1.0, -2.0], dtype=torch.float64, requires_grad=True),
          torch.tensor([4.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True))
torch.autograd.gradcheck(Hypot.apply, inputs)

# %% [markdown]
# A backward with the two gradients swapped is exactly right at $a = b$ and wrong anywhere
# else; a test at one point could miss it.
#
# <details><summary>Will <code>gradcheck</code> pass it? Click to reveal</summary>
#
# No: the Jacobian with respect to `a` does not match (`raise_exception=False` returns `False`
# instead of raising, to print the verdict quietly).
# </details>

# %%
class SwappedHypot(Hypot):
    @staticmethod
    def backward(ctx, grad_output):
        a, b, h = ctx.saved_tensors
        return grad_output * b / h, grad_output * a / h  # wrong: swapped


print(torch.autograd.gradcheck(SwappedHypot.apply, inputs, raise_exception=False))
try:
    torch.autograd.gradcheck(SwappedHypot.apply, inputs)
except RuntimeError as error:
    print(type(error).__name__ + ":", str(error).splitlines()[0])

# %%
assert not torch.autograd.gradcheck(SwappedHypot.apply, inputs, raise_exception=False)

# %% [markdown]
# Every operation in minigrad is tested this way, in `float64`, on random inputs. In the
# exercises you write two of them yourself, `Mul` and `Pow`, and `gradcheck` judges your
# backward.
#
# ## Summary
#
# - A new operation is a `torch.autograd.Function`: `forward(ctx, ...)` computes and saves what
#   backward needs with `ctx.save_for_backward`; `backward(ctx, grad_output)` reads
#   `ctx.saved_tensors` and returns one gradient per input of `forward`, each multiplied by
#   `grad_output`.
# - Call it with `.apply`: it runs `forward` without recording its inside and links one node,
#   named after the class (`HypotBackward`), into the graph.
# - `torch.autograd.gradcheck(fn, inputs)` compares the Jacobian your backward implies with
#   finite differences, element by element; it returns `True` or raises with both Jacobians
#   (`raise_exception=False` returns `False`). Give it `float64` inputs: on `float32` ones it
#   warns and is unreliable.
# - One right value at one point proves little: a backward with swapped gradients is right
#   wherever $a = b$.
#
# Exercises: [exercises/ex12_custom_functions.ipynb](../exercises/ex12_custom_functions.ipynb).
# Next: [13 · Capstone](13_capstone.ipynb).
