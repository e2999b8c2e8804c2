# %% [markdown]
# # 12 · Your own operation: `torch.autograd.Function` and `gradcheck`
#
# Notebook 11 read minigrad's `Mul`: a class with a static `forward` that computes and saves,
# and a static `backward` that turns the gradient of the output into one gradient per input.
# That class is `torch.autograd.Function`, and it is how *you* add an operation to PyTorch. People
# write one to wrap code autograd cannot record (numpy, another library, compiled code), to save
# memory (keep fewer tensors for backward than a chain of operations would), or for a backward
# that is cheaper, numerically safer, or deliberately not the true derivative. This notebook
# writes one, then you write two, and `torch.autograd.gradcheck` checks them against finite
# differences (as your `slope` did in notebook 02).

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# First, what a `Function` is *not*. minigrad writes each of its operations as one; PyTorch's
# are C++ code, and the node they record, such as `MulBackward0`, is generated from a table of
# derivative formulas: a backward, no `forward`, not a `Function`.
# What the two share is what the graph sees: a node that turns one gradient into gradients for
# its inputs.

# %%
x = torch.tensor(3.0, requires_grad=True)
node = (x * x).grad_fn
print(type(node).__name__, isinstance(node, torch.autograd.Function), hasattr(node, "forward"))

# %%
assert not isinstance(node, torch.autograd.Function) and not hasattr(node, "forward")

# %% [markdown]
# ## A `Function` of our own: the length of a vector
#
# Take $h(a, b) = \sqrt{a^2 + b^2}$, the length of the vector $(a, b)$, whose partial
# derivatives are $a/h$ and $b/h$. Backward needs `a`, `b` and the result, so forward saves all
# three with `ctx.save_for_backward` and backward reads them from `ctx.saved_tensors`.

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
# Call it with `.apply`, never `forward` directly: `apply` runs `forward` without recording its
# inside, then links one node, `HypotBackward`, into the graph, holding the three saved tensors:

# %%
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
length = Hypot.apply(a, b)
length

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
# Give it `float64` inputs: in `float32` the rounding error of the difference swamps the check
# (it warns, and can fail a correct backward). It returns `True`, or raises an error that shows
# both Jacobians; `raise_exception=False` returns `False` instead.

# %%
inputs = (torch.tensor([3.0, 1.0, -2.0], dtype=torch.float64, requires_grad=True),
          torch.tensor([4.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True))
torch.autograd.gradcheck(Hypot.apply, inputs)

# %% [markdown]
# A backward with the two gradients swapped is exactly right wherever $a = b$, so a test at one
# such point would pass it. `gradcheck` at several points does not:

# %%
class SwappedHypot(Hypot):
    @staticmethod
    def backward(ctx, grad_output):
        a, b, h = ctx.saved_tensors
        return grad_output * b / h, grad_output * a / h  # wrong: swapped


print(torch.autograd.gradcheck(SwappedHypot.apply, inputs, raise_exception=False))

# %% [markdown]
# ## The length at $(0, 0)$
#
# At the origin, $h = 0$.
#
# <details><summary>What will <code>a.grad</code> be for <code>Hypot.apply(a, b)</code> at
# $a = b = 0$? And for the same formula built from autograd's own operations? Click to
# reveal</summary>
#
# `tensor(nan)` both times. `Hypot`'s backward computes $0/0$; the built-in chain multiplies
# the gradient of `sqrt` at 0, which is infinite, by the $2a = 0$ of `a * a`: $\infty \cdot 0$
# is NaN too.
# One NaN gradient makes every weight it reaches NaN at the next update.
# </details>

# %%
import math

zero_a = torch.tensor(0.0, requires_grad=True)
zero_b = torch.tensor(0.0, requires_grad=True)
Hypot.apply(zero_a, zero_b).backward()
print("Hypot:   ", zero_a.grad)
zero_a.grad = None
(zero_a * zero_a + zero_b * zero_b).sqrt().backward()
print("built-in:", zero_a.grad)

# %%
assert math.isnan(zero_a.grad.item())

# %% [markdown]
# The length has no derivative at the origin: it is a cone's tip. `relu` and `abs` have such a
# point at 0, and `sqrt` an infinite slope there. What PyTorch gives:

# %%
for name, fn in [("relu", torch.relu), ("abs", torch.abs), ("sqrt", torch.sqrt)]:
    t = torch.tensor(0.0, requires_grad=True)
    fn(t).backward()
    print(name, t.grad)

# %% [markdown]
# A tie in `max` is such a point too. `t.max()` splits the gradient evenly among the tied
# entries; `t.max(dim=0)` returns an index (the first maximum's) and sends all of it there:

# %%
t = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
t.max().backward()
print("max():     ", t.grad)
t.grad = None
t.max(dim=0).values.backward()
print("max(dim=0):", t.grad)

# %% [markdown]
# ## The rules at points without a derivative
#
# PyTorch's documentation lists what autograd gives at such points; the first rule that
# applies decides:
#
# - the derivative, where there is one;
# - where the function is convex around the point (bowl-shaped, as `relu` and `abs` are at 0),
#   the smallest slope (in size) of the lines touching it from below (there: 0); where concave
#   (upside down), the same from above;
# - where it is defined, its limit there, infinite included (`sqrt` at 0), or any one of
#   several;
# - where it is not defined, anything: at $-1$, `sqrt`'s gradient is NaN and `log`'s is
#   $-1$ (the formula $1/x$, applied anyway).
#
# Each operation's backward decides how it follows them.
#
# <details><summary><code>torch.relu(t)</code>, <code>t.clamp(min=0)</code> and
# <code>torch.maximum(t, zero)</code> compute the same function. What gradient will each give
# at $t = 0$? Click to reveal</summary>
#
# 0, 1 and 0.5. `relu` follows the convex rule; `clamp` passes the gradient wherever
# $t \ge 0$; `maximum` splits a tie evenly, as `max()` did above. One function, three
# gradients.
# </details>

# %%
zero = torch.tensor(0.0)
at_zero = {}
for name, fn in [("relu", torch.relu), ("clamp(min=0)", lambda t: t.clamp(min=0)),
                 ("maximum(t, zero)", lambda t: torch.maximum(t, zero))]:
    t = torch.tensor(0.0, requires_grad=True)
    fn(t).backward()
    print(name, t.grad)
    at_zero[name] = t.grad.item()

# %%
assert list(at_zero.values()) == [0.0, 1.0, 0.5]

# %% [markdown]
# ## Your turn: a backward that picks 0 at the origin
#
# Write `SafeHypot`, a `Hypot` whose backward returns 0 for both inputs where $h = 0$ and
# $a/h$, $b/h$ elsewhere. One way: divide by a copy of `h` whose zeros are replaced by ones
# (`torch.where(condition, if_true, if_false)` picks element by element, and $a = 0$ wherever
# $h = 0$). Only `backward` changes, so subclass `Hypot`. In the cell below, in place of its
# `raise NotImplementedError()`:
#
# ```python
# class SafeHypot(Hypot):
#     @staticmethod
#     def backward(ctx, grad_output):
#         a, b, h = ctx.saved_tensors
#         ...
# ```

# %% tags=["build"]
class SafeHypot(Hypot):
    """Hypot with the gradient 0 at the origin, where the length has no derivative."""

    @staticmethod
    def backward(ctx, grad_output):
        a, b, h = ctx.saved_tensors
        ### BEGIN SOLUTION
        safe_h = torch.where(h == 0, torch.ones_like(h), h)  # a = b = 0 there: 0 / 1 = 0
        return grad_output * a / safe_h, grad_output * b / safe_h
        ### END SOLUTION


# %% [markdown]
# Whatever you wrote, it must give 0 at the origin, $(0.6, 0.8)$ at $(3, 4)$, and pass
# `gradcheck` away from the origin:

# %%
both_a = torch.tensor([0.0, 3.0], requires_grad=True)
both_b = torch.tensor([0.0, 4.0], requires_grad=True)
SafeHypot.apply(both_a, both_b).sum().backward()
print(both_a.grad, both_b.grad)
print(torch.autograd.gradcheck(SafeHypot.apply, inputs, raise_exception=False))

# %%
assert torch.allclose(both_a.grad, torch.tensor([0.0, 0.6])), f"a.grad is {both_a.grad}"
assert torch.allclose(both_b.grad, torch.tensor([0.0, 0.8])), f"b.grad is {both_b.grad}"
assert torch.autograd.gradcheck(SafeHypot.apply, inputs, raise_exception=False), \
    "gradcheck disagrees with SafeHypot's backward away from the origin: there it is Hypot's"

# %% [markdown]
# ## A gradient on purpose wrong: the straight-through estimator
#
# Some networks use weights or activations squashed to $\pm 1$ (binarized networks) or rounded
# to a few levels (quantized ones). `sign` and rounding are flat almost everywhere, so their true
# gradient is 0, and nothing before them would ever learn:

# %%
w = torch.tensor([0.3, 1.7, -0.6], requires_grad=True)
upstream = torch.tensor([1.0, 2.0, 3.0])
(w.sign() * upstream).sum().backward()
print(w.sign(), w.grad)

# %% [markdown]
# The *straight-through estimator* keeps the flat function in forward and, in backward,
# pretends it was the identity: the gradient from above passes through unchanged. A `Function`
# says so in two lines. (Another common spelling, `t + (t.sign() - t).detach()`, has the same
# values and gradient, with notebook 10's `detach()`.)
#
# Write `SignSTE`: `SignSTE.apply(t)` returns `t.sign()`, and its backward returns the
# gradient it receives. In the cell below, in place of its two `raise NotImplementedError()`.

# %% tags=["build"]
class SignSTE(torch.autograd.Function):
    """sign(t) forward; backward passes the gradient through as if it were the identity."""

    @staticmethod
    def forward(ctx, t):
        ### BEGIN SOLUTION
        return t.sign()
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        return grad_output
        ### END SOLUTION


# %% [markdown]
# <details><summary>What will <code>w.grad</code> be now? Click to reveal</summary>
#
# `tensor([1., 2., 3.])`, the upstream gradient itself, while the values are still $\pm 1$.
# </details>

# %%
w.grad = None
binary = SignSTE.apply(w)
(binary * upstream).sum().backward()
print(binary, w.grad)

# %%
assert binary.tolist() == [1.0, 1.0, -1.0], f"forward gave {binary}: it should be w.sign()"
assert w.grad.tolist() == [1.0, 2.0, 3.0], f"w.grad is {w.grad}: backward passes grad_output"

# %% [markdown]
# (`gradcheck` rejects it, rightly: its backward is not the derivative of its forward. That is
# the point.)
#
# ## Inputs that are not tensors, and `ctx.needs_input_grad`
#
# `backward` returns one value per input of `forward`, tensors or not. For an input that is a
# plain number, or any input that gets no gradient, that value is `None`; a number that backward
# needs is kept on `ctx`, as `save_for_backward` is for tensors. `ctx.needs_input_grad` holds one
# `True`/`False` per input, so backward can skip a gradient nobody will use, which is how a
# custom backward saves time.

# %%
class Scale(torch.autograd.Function):
    """t * factor for a number factor: dt = factor, no gradient for factor."""

    @staticmethod
    def forward(ctx, t, factor):
        ctx.factor = factor  # a number: kept on ctx
        return t * factor

    @staticmethod
    def backward(ctx, grad_output):
        print("needs_input_grad:", ctx.needs_input_grad)
        grad_t = grad_output * ctx.factor if ctx.needs_input_grad[0] else None
        return grad_t, None  # None for factor


t = torch.tensor([1.0, 2.0], requires_grad=True)
Scale.apply(t, 3.0).sum().backward()
print(t.grad)

# %%
assert t.grad.tolist() == [3.0, 3.0]

# %% [markdown]
# Forget the `None` and autograd refuses the answer:

# %%
class ScaleOneGradient(Scale):
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.factor


try:
    ScaleOneGradient.apply(t, 3.0).sum().backward()
except RuntimeError as error:
    print(error)

# %% [markdown]
# ## Summary
#
# - PyTorch's built-in operations record generated nodes such as `MulBackward0`, not `Function`s;
#   `torch.autograd.Function` is how you add one of your own: `forward(ctx, ...)` computes and
#   saves with `ctx.save_for_backward`, `backward(ctx, grad_output)` returns one gradient per
#   input (`None` for a number), and `.apply` links one node, named `HypotBackward` after the
#   class.
# - Reasons to write one: code autograd cannot record (numpy, other libraries), less memory
#   saved for backward, a safer backward (0 instead of NaN where the derivative does not exist,
#   as PyTorch picks for `relu` and `abs` at 0), a deliberate estimate (the straight-through
#   estimator), a cheaper one (`ctx.needs_input_grad` skips what nobody needs).
# - `torch.autograd.gradcheck(fn, inputs)` compares your backward with finite differences in
#   every direction; give it `float64` inputs, and points where the function is smooth.
#
# Exercises: [exercises/ex12_custom_functions.ipynb](../exercises/ex12_custom_functions.ipynb).
# Next: [13 · An engine of your own](13_engine_from_scratch.ipynb).
