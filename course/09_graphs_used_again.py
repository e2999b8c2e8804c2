# %% [markdown]
# # 09 · Using a graph again: `retain_graph` and `autograd.grad`
#
# `loss.backward()` then `.grad` is the everyday way to get gradients, and it decides two
# things for you: the graph is thrown away once the pass is over, and the results land in
# `.grad` (added to what is there) for every leaf. This notebook undoes each decision in turn:
# a second pass through one graph, then gradients handed back to you for the tensors you name.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## The same backward twice
#
# $y = x^2$ at $x = 3$. Backward once gives $dy/dx = 6$. Notebook 03 called `backward()` on
# *different* results and saw the gradients add up. What about the *same* result twice?
#
# <details><summary>What will the second <code>y.backward()</code> do? Click to reveal</summary>
#
# Raise a `RuntimeError`: *Trying to backward through the graph a second time*. `x.grad` keeps
# the 6 from the first pass.
# </details>

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x**2
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print(error)
print("x.grad:", x.grad)

# %%
assert x.grad.item() == 6.0

# %% [markdown]
# The message explains it: the values an operation saved for its backward (notebook 08) are
# freed as soon as its backward has run, because in training they are most of the memory and
# nobody needs them twice. A second pass that reaches a node whose saved values are gone fails.
# `PowBackward0`, for instance, saves `x` (its derivative is $2x$) as `_saved_self`, and the
# exponent, a plain number, as `_saved_exponent` (notebook 08).
#
# <details><summary>What will reading <code>_saved_self</code> print before and after
# <code>y.backward()</code>? Click to reveal</summary>
#
# Before: `True`, the saved tensor is `x` itself. After: the same error as the second backward.
# Its words in parentheses, *or directly access saved tensors after they have already been
# freed*, are about exactly this. The exponent, which is not a tensor, is still there.
# </details>

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x**2
print(y.grad_fn._saved_self is x, y.grad_fn._saved_exponent)
y.backward()
try:
    y.grad_fn._saved_self
except RuntimeError as error:
    print(str(error).split(". ")[0] + ".")  # the first sentence of its message
print(y.grad_fn._saved_exponent)

# %% [markdown]
# The same in pictures, on a fresh copy, before and after one backward pass:

# %% tags=["minigrad-only"]
x = torch.tensor(3.0, requires_grad=True)
y = x**2
viz.draw(y, view="backward", show_saved=True)

# %% tags=["minigrad-only"]
y.backward()
viz.draw(y, view="backward", show_saved=True)

# %% [markdown]
# `retain_graph=True` keeps the saved values, so `_saved_self` can still be read and the graph
# walked again.
#
# <details><summary>What will <code>x.grad</code> print after two passes? Click to
# reveal</summary>
#
# `tensor(12.)`: $6 + 6$. The second pass adds its gradient to `.grad`, as any backward does.
# </details>

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x**2
y.backward(retain_graph=True)
print("still saved:", y.grad_fn._saved_self is x)
y.backward()
x.grad

# %%
assert x.grad.item() == 6.0 + 6.0

# %% [markdown]
# Only the *last* pass may drop `retain_graph`. It is needed when two losses share part of a
# graph and you call `backward()` on each (notebook 05's Jacobian did one pass per row). A node
# that saved nothing has nothing to free, so a graph made only of such nodes can be walked twice
# even without it; `x + 1` is one (notebook 08: `AddBackward0` saves nothing). Relying on that
# would be fragile.

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x + 1
y.backward()
y.backward()
x.grad

# %%
assert x.grad.item() == 2.0

# %% [markdown]
# ## `torch.autograd.grad`: gradients as return values
#
# `torch.autograd.grad(outputs, inputs)` runs the same backward pass but *returns* the
# gradients of `outputs` with respect to `inputs`.
#
# <details><summary>For <code>y = x**3</code> at 2, what will it return, and what is
# <code>x.grad</code> afterwards? Click to reveal</summary>
#
# `(tensor(12.),)`: a **tuple**, one gradient per input, even for a single input. `x.grad` stays
# `None`: `autograd.grad` writes no `.grad` anywhere, so there is nothing to reset and nothing
# accumulates.
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
gradients = torch.autograd.grad(y, x)
print(gradients)
print("x.grad:", x.grad)

# %%
assert isinstance(gradients, tuple) and len(gradients) == 1
assert gradients[0].item() == 3 * 2.0**2 and x.grad is None

# %% [markdown]
# With several inputs, pass a list and unpack the tuple. It also frees the graph unless told
# otherwise (`retain_graph=True`), like `backward()`.

# %%
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
line = w * 2.0 + b
dw, db = torch.autograd.grad(line, [w, b])
print(dw, db, w.grad, b.grad)

# %%
assert (dw.item(), db.item()) == (2.0, 1.0) and w.grad is None and b.grad is None

# %% [markdown]
# ## Your turn: a gradient for each loss
#
# A network with two heads has two losses over one shared body. Write `each_gradient(losses,
# x)`: a list holding each loss's gradient with respect to `x`, in order, from one
# `autograd.grad` pass per loss. Every pass but the last must keep the graph for the passes
# after it; the last frees it.

# %% tags=["build"]
def each_gradient(losses, x):
    ### BEGIN SOLUTION
    gradients = []
    for number, loss in enumerate(losses):
        more_to_come = number < len(losses) - 1
        (gradient,) = torch.autograd.grad(loss, x, retain_graph=more_to_come)
        gradients.append(gradient)
    return gradients
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import graphs_used_again as check

check.one_pass_each(each_gradient)

# %% [markdown]
# Yours on two losses through one `sin`; $\frac{d}{dx}\sin^2 x = 2 \sin x \cos x = \sin 2x$:

# %%
x = torch.tensor([0.5, 1.0], requires_grad=True)
h = x.sin()
gradients = each_gradient([h.sum(), (h * h).sum()], x)
print(gradients)

# %%
angles = x.detach()
assert torch.allclose(gradients[0], angles.cos())
assert torch.allclose(gradients[1], (2 * angles).sin()) and x.grad is None

# %% [markdown]
# ## `backward(inputs=...)`: only the tensors you name
#
# `backward()` writes the `.grad` of every leaf that requires grad. With `inputs=[...]` it
# writes only those of the tensors in the list.
#
# <details><summary>For <code>loss = a * b + b</code> at $a = 2$, $b = 3$, what will
# <code>loss.backward(inputs=[a])</code> leave in <code>a.grad</code> and <code>b.grad</code>?
# Click to reveal</summary>
#
# `tensor(3.)` and `None`: $\partial L/\partial a = b = 3$, and `b`, not named, is left
# alone.
# </details>

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
loss = a * b + b
loss.backward(inputs=[a])
print(a.grad, b.grad)

# %%
assert a.grad.item() == 3.0 and b.grad is None

# %% [markdown]
# ## Summary
#
# - `backward()` frees the saved values of the graph as it goes; a second pass raises *Trying to
#   backward through the graph a second time*. `retain_graph=True` keeps them. Reading a freed
#   value through `grad_fn._saved_self` raises the same error.
# - `torch.autograd.grad(outputs, inputs)` returns a tuple of gradients and leaves `.grad`
#   alone; it frees the graph too unless told to keep it.
# - `backward(inputs=[...])` fills only the `.grad` of the tensors named.
#
# Two more ways to use a graph again come after the capstone: differentiating a gradient
# (notebook 15) and choosing what a graph keeps for its backward pass (notebook 16).
#
# Exercises: [exercises/ex09_graphs_used_again.ipynb](../exercises/ex09_graphs_used_again.ipynb).
# Next: [10 · Stopping gradients](10_detach_and_no_grad.ipynb).
