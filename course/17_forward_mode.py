# %% [markdown]
# # 17 · Forward mode: why backward runs backwards
#
# Every derivative in this course so far came from a backward pass, from the output back to
# the inputs. Autograd could have gone the other way: start at the inputs and carry derivatives
# forward, beside the values, the way you differentiate by hand from the inside out. That is
# *forward mode*. This notebook counts what each direction costs, which is the reason training
# runs backward, and builds forward mode with a small class.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cell you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %% [markdown]
# ## What reverse mode costs
#
# First, what notebook 05 showed. For an output $y$ of $m$ numbers computed from an input $x$
# of $n$, the *Jacobian* $J$ is the $m \times n$ matrix of all the slopes
# $J_{ij} = \partial y_i / \partial x_j$: row $i$ holds how output $i$ moves with each input.
# `y.backward(gradient=v)` never builds $J$. It computes $v^\top J$, one weight $v_i$ per
# output, and with $v$ one-hot (1 at place $i$, zeros elsewhere) that is row $i$. So the whole
# Jacobian costs one backward pass per row, that is per *output*: that was your `jacobian`.
#
# `torch.autograd.functional.jacobian(f, t)` is the same loop, packaged. A hook on `t`
# (notebook 07) runs once in each backward pass that reaches it, so it can count the passes.
# Here `f` multiplies a vector of 1,000 numbers by a matrix of 3 rows.
#
# <details><summary>How many backward passes will the Jacobian of <code>W @ t</code> take?
# Click to reveal</summary>
#
# 3, one per row of the result; the 1,000 inputs cost nothing extra. Each pass gives a whole
# row of $J$: 1,000 derivatives at once.
# </details>

# %%
W = torch.arange(3000.0).reshape(3, 1000) / 3000
passes = []


def f(t):
    t.register_hook(lambda grad: passes.append(1))
    return W @ t


J = torch.autograd.functional.jacobian(f, torch.ones(1000))
print(J.shape, "from", len(passes), "backward passes")

# %%
assert J.shape == (3, 1000) and len(passes) == 3

# %% [markdown]
# Forward mode carries derivatives along one direction $v$ of the inputs (a change of `t`)
# forward through each operation, and ends with $J v$: how every output moves when the inputs
# move along $v$. With $v$ a one-hot vector that is one *column* of $J$, so the whole Jacobian
# takes one pass per input: 1,000 here, against reverse mode's 3.
#
# A loss is the extreme case: one output, a million weights. Reverse mode gets its whole
# gradient in 1 pass; forward mode would need a million. That is why training runs backward.
# Forward mode wins the other way round, for few inputs and many outputs.
#
# ## Dual numbers
#
# Forward mode runs on *dual numbers*: a value $a$ paired with its *tangent* $\dot a$, its
# derivative along $v$. Every operation computes both halves from its inputs' halves:
# $(a + b,\ \dot a + \dot b)$ for a sum, $(ab,\ \dot a b + a \dot b)$ for a product,
# $(\sin a,\ \dot a \cos a)$ for a sine. No graph is recorded and nothing is walked back: the
# derivative is finished when the value is.
#
# Write `Dual`'s product and `sin` in the cell below, in place of its
# `raise NotImplementedError()`. Its halves are tensors, so it runs on PyTorch too.

# %% tags=["build"]
class Dual:
    """A value, and its tangent: the derivative along one direction of the inputs."""

    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):
        ### BEGIN SOLUTION
        return Dual(self.value * other.value,
                    self.tangent * other.value + self.value * other.tangent)
        ### END SOLUTION

    def sin(self):
        ### BEGIN SOLUTION
        return Dual(self.value.sin(), self.tangent * self.value.cos())
        ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import forward_mode as check

check.dual_rules(Dual)

# %% [markdown]
# One forward pass of $g(t) = t \sin t + t$ on `Dual(point, direction)` gives $J v$. Reverse
# mode gets the same numbers by building all of $J$ (one backward pass per row) and multiplying.
# PyTorch's own forward mode is `torch.func.jvp`, built on `torch.autograd.forward_ad`, whose
# `make_dual(value, tangent)` makes a tensor that carries its tangent, as `Dual` does.

# %%
def g(t):
    return t * t.sin() + t


point = torch.tensor([0.5, 1.0, 2.0])
direction = torch.tensor([1.0, 0.0, -1.0])

# %%
forward_mode = g(Dual(point, direction)).tangent
reverse_mode = torch.autograd.functional.jacobian(g, point) @ direction
print("forward mode:", forward_mode)
print("J @ v:       ", reverse_mode)

# %%
assert torch.allclose(forward_mode, reverse_mode), (
    "forward mode and J @ v differ: check Dual's product and sin against the rules above "
    "(a result's tangent is made from its inputs' values and tangents)")

# %% [markdown]
# Reverse mode needed the graph of $g$, recorded as it ran, to walk back through: here it is,
# for a leaf that requires grad. Forward mode records none of it; each `Dual` carries its
# tangent along.

# %% tags=["minigrad-only"]
leaf = point.clone().requires_grad_()
viz.draw(g(leaf))

# %% [markdown]
# $g$ works on each element alone, so $J$ is diagonal: entry $i$ of the output depends on
# entry $i$ of the input only.
#
# <details><summary>With <code>direction = [0., 1., 0.]</code>, what will the tangent be?
# Click to reveal</summary>
#
# `tensor([0.0000, 2.3818, 0.0000])`: column 1 of $J$. Only the middle input moves, and only
# the middle output follows it, at the rate $g'(1) = \sin 1 + \cos 1 + 1$.
# </details>

# %%
column = g(Dual(point, torch.tensor([0.0, 1.0, 0.0]))).tangent
column

# %%
assert torch.allclose(column, torch.autograd.functional.jacobian(g, point)[:, 1])

# %% [markdown]
# ## Summary
#
# - Reverse mode (`backward()`) gives one row of $J$ per pass: the whole gradient of a single
#   loss in one pass, however many weights.
# - Forward mode gives one column of $J$ per pass, $J v$ for a direction $v$ of the inputs:
#   cheap for few inputs, hopeless for a million weights.
# - A dual number carries a value and its tangent; each operation has a rule for both, and
#   no graph is recorded.
#
# Exercises: [exercises/ex17_forward_mode.ipynb](../exercises/ex17_forward_mode.ipynb).
# That is the end of the course: the worked answers to all exercises are in `solutions/`.
