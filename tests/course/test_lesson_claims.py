"""Every claim the lessons make in prose, and no cell of theirs shows, settled on PyTorch 2.13
(issue 29, item 6).

CLAIMS lists each one: the lesson (or file) that makes it, words of the claim as the source
says them (compared without line breaks and comment marks, so that a claim cannot change
without its row), and a snippet that asserts what it says. Each snippet runs on PyTorch, and on minigrad too where the claim is about behaviour
minigrad shares ("both"); "torch" marks what only PyTorch has, or only PyTorch can show
(a `data_ptr()`, inference tensors). What the lessons' cells print is compared on PyTorch by
tests/parity/test_notebooks_on_torch.py; this file covers what they only say."""
from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import jupytext
import pytest

import minigrad

ROOT = Path(__file__).resolve().parents[2]
BOTH, TORCH = "both", "torch"

# (where the claim is made, its words there, the snippet that settles it, who runs it)
CLAIMS = [
    # 00: x.grad does not itself require grad.
    ("00", "it does not carry `requires_grad=True` itself", """
x = torch.tensor(3.0, requires_grad=True)
(x ** 2).backward()
assert x.grad.item() == 6.0 and not x.grad.requires_grad and x.grad.grad_fn is None
""", BOTH),
    # 01: only AccumulateGrad and CopySlices carry their C++ namespace.
    ("01", "`torch::autograd::AccumulateGrad` carries its C++ namespace in its name", """
w = torch.tensor(3.0, requires_grad=True)
y = w * 2
assert y.grad_fn.name() == "MulBackward0"
assert y.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
z = torch.zeros(2)
z[0] = w
assert z.grad_fn.name() == "torch::autograd::CopySlices"
""", BOTH),
    ("01", "Printing a `grad_fn` object itself would show a memory address", """
import re
y = torch.tensor(3.0, requires_grad=True) * 2
assert re.search(r"0x[0-9a-fA-F]+", repr(y.grad_fn)), repr(y.grad_fn)
""", TORCH),  # minigrad prints none: its outputs are the same on every run
    # 01: integers cannot require grad; complex numbers can, on PyTorch.
    ("01", "floating-point (or complex) tensors can", """
try:
    torch.tensor([1, 2], requires_grad=True)
    raise AssertionError("an integer tensor required grad")
except RuntimeError as error:
    assert "floating point and complex" in str(error)
assert torch.tensor([1.0], requires_grad=True).requires_grad
""", BOTH),
    ("01", "floating-point (or complex) tensors can", """
assert torch.tensor([1j], requires_grad=True).requires_grad
""", TORCH),
    # 02: x -= lr * x.grad is SGD's update, whatever the gradient's size.
    ("02", "`torch.optim.SGD` makes exactly this update", """
for start, expected in [(2.0, 1.6), (200.0, 160.0)]:
    x = torch.tensor(start, requires_grad=True)
    step = torch.optim.SGD([x], lr=0.1)
    (x ** 2).backward()  # x.grad = 2x: 4, or 400
    step.step()
    assert abs(x.item() - expected) < 1e-4, (start, x.item())
""", BOTH),
    # 03: in place, except with create_graph=True.
    ("03", "with `create_graph=True`, notebook 15, it makes a new one", """
w = torch.tensor(1.0, requires_grad=True)
(w * 3).backward()
held = w.grad
(w * 3).backward()
assert held is w.grad and held.item() == 6.0
w.grad = None
(w * 3).backward(create_graph=True)
held = w.grad
(w * 3).backward(create_graph=True)
assert held is not w.grad and held.item() == 3.0 and w.grad.item() == 6.0
""", BOTH),
    # 04: zero_grad's default, and which parameters step() skips.
    ("04", "`zero_grad(set_to_none=True)` is the default", """
import inspect
assert inspect.signature(torch.optim.SGD.zero_grad).parameters["set_to_none"].default is True
""", BOTH),
    ("04", "received no gradient at all, and optimizers skip it in `step()`", """
for optimizer in (torch.optim.SGD, torch.optim.Adam):
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    step = optimizer([p], lr=0.1, weight_decay=0.5)
    step.step()  # .grad is None: skipped, weight decay included
    assert p.tolist() == [1.0, 2.0]
    p.grad = torch.zeros(2)  # a real gradient of zeros: weight decay moves it
    step.step()
    assert p.tolist() != [1.0, 2.0], optimizer.__name__
""", BOTH),
    # 04: the forgotten reset's losses, counting steps from 0.
    ("04", "as the plot below does: 0.03 at step 36, 2.20 three steps later", """
xs = torch.linspace(-1.0, 1.0, 21)
ys = 2 * xs + 1 + 0.2 * torch.sin(7 * xs)
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.2)
losses = []
for step in range(60):
    loss = ((w * xs + b - ys) ** 2).mean()
    loss.backward()  # never reset
    optimizer.step()
    losses.append(loss.item())
assert (round(losses[36], 2), round(losses[39], 2), round(losses[40], 2)) == (0.03, 2.2, 1.88)
""", BOTH),
    # 05: the scalar case's implicit gradient is 1; functional.jacobian packages the loop.
    ("05", "For a scalar output, $v$ is simply 1", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x ** 3).sum().backward()
implicit = x.grad.clone()
x.grad = None
(x ** 3).sum().backward(torch.tensor(1.0))
assert torch.equal(implicit, x.grad)
""", BOTH),
    ("05", "PyTorch packages this loop as `torch.autograd.functional.jacobian`", """
x = torch.tensor([1.0, 2.0, 3.0])
J = torch.autograd.functional.jacobian(lambda t: t ** 2, x)
assert torch.equal(J, torch.eye(3) * 2 * x)
""", BOTH),
    # 07: hooks on grad_fn nodes and on modules get gradients and may return replacements.
    ("07", "PyTorch has more hooks than these: on `grad_fn` nodes, and on `nn.Module`s", """
x = torch.tensor(1.0, requires_grad=True)
y = x * 2
y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
y.backward()
assert x.grad.item() == 20.0
layer = torch.nn.Linear(1, 1)
layer.register_full_backward_hook(lambda module, grad_input, grad_output:
                                  (grad_input[0] * 0,))
inputs = torch.ones(1, 1, requires_grad=True)
layer(inputs).sum().backward()
assert inputs.grad.item() == 0.0
""", TORCH),
    ("07", "`LeakyReLU`, whose slope is never zero", """
t = torch.tensor([-2.0, 3.0], requires_grad=True)
torch.nn.LeakyReLU()(t).sum().backward()
assert torch.allclose(t.grad, torch.tensor([0.01, 1.0]))
""", BOTH),
    # 08: what sin saves; PyTorch's documentation on in-place operations.
    ("08", "| `a.sin()` | $\\cos a$ | its input |", """
h = torch.tensor([1.0, 2.0], requires_grad=True) * 1
node = h.sin().grad_fn
assert node._saved_self is h and not hasattr(node, "_saved_result")
""", BOTH),
    # 08: a product saves each input only for the other's gradient.
    ("08", "`b` for `a`'s gradient, `a` for `b`'s", """
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
node = (a * b).grad_fn  # only a requires grad: b is saved, a is not
assert node._saved_other is b and node._saved_self is None
b.requires_grad_()
node = (a * b).grad_fn
assert node._saved_self is a and node._saved_other is b
""", BOTH),
    # 08: a backward that fails part-way has already run, and freed, the nodes before the
    # failing one (the diagram of exponential shows mul_'s node with its saved tensors freed).
    ("08", "The failed pass already ran and freed `mul_`'s node.", """
x = torch.tensor([1.0, 2.0], requires_grad=True)
exponential = (x * 1).exp()
exponential.mul_(2)
try:
    exponential.sum().backward()
    raise AssertionError("backward ran through a changed saved tensor")
except RuntimeError:
    pass
try:
    exponential.grad_fn._saved_other
    raise AssertionError("mul_'s node still holds what it saved")
except RuntimeError as error:
    assert "already been freed" in str(error)
""", BOTH),
    ("08", "The loss was computed with the old `w`", """
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    w -= 0.1  # version 1, as in the lesson
loss = (w ** 2).sum()
with torch.no_grad():
    w -= 0.1 * 2 * w
try:
    loss.backward()
    raise AssertionError("a stale graph ran backward")
except RuntimeError as error:
    assert "is at version 2; expected version 1" in str(error)
""", BOTH),
    # 15: backward(create_graph=True) warns. 09: autograd.grad frees the graph too.
    ("15", "`backward(create_graph=True)` exists too, but PyTorch warns", """
# fresh process: PyTorch gives this warning once per process
import warnings
w = torch.tensor(2.0, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (w ** 3).backward(create_graph=True)
text = " ".join(str(warning.message) for warning in caught)
assert "reference cycle" in text and "autograd.grad" in text, text
""", BOTH),
    ("09", "It also frees the graph unless told otherwise", """
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
torch.autograd.grad(y, x)
try:
    torch.autograd.grad(y, x)
    raise AssertionError("the graph was kept")
except RuntimeError as error:
    assert "second time" in str(error)
""", BOTH),
    # 10: detach() shares memory and the version counter; inference tensors; eval().
    ("10", "`detach()` shares memory with the original", """
w = torch.tensor([1.0, 2.0], requires_grad=True)
t = w * 1
d = t.detach()
d.mul_(3)
assert t.tolist() == [3.0, 6.0] and t._version == 1
""", BOTH),
    ("10", "which raises an error if a recorded operation later saves it for backward", """
with torch.inference_mode():
    served = torch.ones(2)
assert served.is_inference()
w = torch.ones(2, requires_grad=True)
try:
    (w * served).sum().backward()
    raise AssertionError("an inference tensor was saved for backward")
except RuntimeError as error:
    assert "Inference tensors cannot be saved for backward" in str(error)
""", BOTH),
    ("10", "`model.eval()` sets `model.training = False` in the module and all its submodules", """
model = torch.nn.Sequential(torch.nn.Linear(1, 1), torch.nn.Sequential(torch.nn.Tanh()))
model.eval()
assert not any(module.training for module in model.modules())
y = model(torch.ones(1, 1))
assert y.grad_fn is not None
""", BOTH),
    # 11: the order of the learner's loop, PyTorch's sequence numbers, recursion's limit.
    ("11", "Your `ready.pop()` would differ", """
x = torch.tensor(1.0, requires_grad=True)
e = x.exp()
s = e.sin()
co = x.cos()
out = co * s

def order(take):
    waiting, stack = {out.grad_fn: 0}, [out.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in waiting:
                    waiting[child] = 0
                    stack.append(child)
                waiting[child] += 1
    ready, ran = [out.grad_fn], []
    while ready:
        node = take(ready)
        ran.append(node.name())
        for child, _ in node.next_functions:
            if child is not None:
                waiting[child] -= 1
                if waiting[child] == 0:
                    ready.append(child)
    return [name for name in ran if "Accumulate" not in name]

assert order(lambda ready: ready.pop()) == [
    "MulBackward0", "SinBackward0", "ExpBackward0", "CosBackward0"]
assert order(lambda ready: ready.pop(0)) == [
    "MulBackward0", "CosBackward0", "SinBackward0", "ExpBackward0"]
""", BOTH),
    ("11", "`AccumulateGrad` gets the largest number of all", """
x = torch.tensor(1.0, requires_grad=True)
first = x.exp()
second = first.sin()
assert second.grad_fn._sequence_nr() > first.grad_fn._sequence_nr()
accumulate = first.grad_fn.next_functions[0][0]
assert accumulate._sequence_nr() == 2 ** 64 - 1
""", TORCH),
    ("11", "Python stops it after about a thousand nested calls", """
import sys
assert sys.getrecursionlimit() == 1000
""", BOTH),
    ("11", "that is why a name taken for `.grad` moves with it", """
x = torch.ones(3, requires_grad=True)
(x * 2).sum().backward()
held = x.grad
(x * 2).sum().backward()
assert held is x.grad and held.tolist() == [4.0, 4.0, 4.0]
""", BOTH),
    # accumulate.py's docstring, printed in lesson 11: PyTorch steals the incoming buffer.
    ("minigrad/autograd/accumulate.py",
     "PyTorch takes over the incoming buffer when nothing else holds it", """
x = torch.ones(1000, requires_grad=True)
seen = []
x.register_hook(lambda grad: seen.append(grad.data_ptr()))
(x * 2).sum().backward()
assert seen[0] == x.grad.data_ptr()
y = torch.ones(1000, requires_grad=True)
kept = []
y.register_hook(kept.append)  # the hook holds the gradient: PyTorch copies it
(y * 2).sum().backward()
assert kept[0].data_ptr() != y.grad.data_ptr()
""", TORCH),
    # 12: why write a Function: wrap numpy, save memory; float32 and gradcheck; the STE.
    ("12", "to wrap code autograd cannot record (numpy", """
import numpy as np

class NumpySin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return torch.tensor(np.sin(t.detach().numpy()))

    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return grad_output * torch.tensor(np.cos(t.detach().numpy()))

t = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
assert torch.autograd.gradcheck(NumpySin.apply, (t,))
""", BOTH),
    ("12", "to save memory (keep fewer tensors for backward than a chain of operations would)",
     """
saved = []
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t, lambda t: t):
    (a * a + b * b).sqrt()
chain = len(saved)

class Hypot(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        h = (a * a + b * b).sqrt()
        ctx.save_for_backward(a, b, h)
        return h

    @staticmethod
    def backward(ctx, grad_output):
        a, b, h = ctx.saved_tensors
        return grad_output * a / h, grad_output * b / h

saved.clear()
with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t, lambda t: t):
    Hypot.apply(a, b)
assert (chain, len(saved)) == (5, 3)
""", TORCH),
    ("12", "in `float32` the rounding error of the difference swamps the check", """
import warnings
t = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)  # float32
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    passed = torch.autograd.gradcheck(torch.exp, (t,), raise_exception=False)
assert any("double precision" in str(w.message) for w in caught)
assert not passed  # exp's backward is right; float32 differences are not
double = t.detach().double().requires_grad_()
assert torch.autograd.gradcheck(torch.exp, (double,))
""", TORCH),
    ("12", "`t + (t.sign() - t).detach()`, has the same values and gradient", """
w = torch.tensor([0.3, 1.7, -0.6], requires_grad=True)
ste = w + (w.sign() - w).detach()
(ste * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
assert ste.tolist() == [1.0, 1.0, -1.0] and w.grad.tolist() == [1.0, 2.0, 3.0]
""", BOTH),
    ("12", "(`gradcheck` rejects it, rightly", """
class SignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.sign()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output

t = torch.tensor([0.3, 1.7, -0.6], dtype=torch.float64, requires_grad=True)
assert not torch.autograd.gradcheck(SignSTE.apply, (t,), raise_exception=False)
""", BOTH),
    # 14: the linear layer's node, cross-entropy, the output bias's gradient, freezing.
    ("14", "`AddmmBackward0` (PyTorch's name for the `x @ W.T + b` of a linear layer)", """
layer = torch.nn.Linear(2, 3)
x = torch.ones(4, 2)
out = layer(x)
assert out.grad_fn.name() == "AddmmBackward0"
assert torch.allclose(out, x @ layer.weight.T + layer.bias)
""", BOTH),
    ("14", "averages $-\\log$ of the probability given to the right class", """
scores = torch.tensor([[2.0, -1.0], [0.5, 0.5], [-1.0, 3.0]])
labels = torch.tensor([0, 1, 0])
probabilities = torch.nn.functional.softmax(scores, dim=1)
by_hand = -probabilities[torch.arange(3), labels].log().mean()
assert torch.allclose(torch.nn.CrossEntropyLoss()(scores, labels), by_hand)
""", BOTH),
    ("14", ("its gradient is the average over all points of (predicted probabilities minus "
            "the one-hot label)"), """
layer = torch.nn.Linear(2, 2)
with torch.no_grad():  # fixed weights: random ones made the float comparison flaky
    layer.weight.copy_(torch.tensor([[0.3, -0.7], [0.5, 0.2]]))
    layer.bias.copy_(torch.tensor([0.1, -0.4]))
xs = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
labels = torch.tensor([0, 1, 1])
scores = layer(xs)
torch.nn.CrossEntropyLoss()(scores, labels).backward()
one_hot = torch.nn.functional.one_hot(labels, 2).float()
expected = (torch.nn.functional.softmax(scores.detach(), dim=1) - one_hot).mean(dim=0)
assert torch.allclose(layer.bias.grad, expected)
""", BOTH),
    ("14", "The optimizer does not read `requires_grad`", """
for momentum, set_to_none in ((0.0, True), (0.9, False)):
    frozen = torch.nn.Linear(2, 2)
    optimizer = torch.optim.SGD(frozen.parameters(), lr=0.1, momentum=momentum)
    frozen(torch.ones(1, 2)).sum().backward()
    optimizer.step()  # builds momentum, if any
    frozen.requires_grad_(False)
    before = frozen.weight.detach().clone()
    if not set_to_none:
        optimizer.zero_grad(set_to_none=False)  # zeros: momentum still moves it
    optimizer.step()  # else: the old .grad is still there
    assert not torch.equal(frozen.weight.detach(), before), (momentum, set_to_none)
optimizer.zero_grad()  # None: skipped
before = frozen.weight.detach().clone()
optimizer.step()
assert torch.equal(frozen.weight.detach(), before)
""", BOTH),
    # Issue 32's sections (17, 07, 16, 12) and the engine from scratch (13).
    # 17: forward mode, and how many passes each mode needs for a Jacobian.
    ("17", "PyTorch's own forward mode is `torch.func.jvp`", """
f = lambda t: t * t.sin() + t
point, direction = torch.tensor([0.5, 1.0, 2.0]), torch.tensor([1.0, 0.0, -1.0])
_, tangent = torch.func.jvp(f, (point,), (direction,))
assert torch.allclose(tangent, torch.autograd.functional.jacobian(f, point) @ direction)
""", TORCH),
    ("17", "`make_dual(value, tangent)` makes a tensor that carries its tangent", """
import torch.autograd.forward_ad as fwAD
f = lambda t: t * t.sin() + t
point, direction = torch.tensor([0.5, 1.0, 2.0]), torch.tensor([1.0, 0.0, -1.0])
with fwAD.dual_level():
    tangent = fwAD.unpack_dual(f(fwAD.make_dual(point, direction))).tangent
assert torch.allclose(tangent, torch.autograd.functional.jacobian(f, point) @ direction)
""", TORCH),
    ("17", "takes one pass per input: 1,000 here, against reverse mode's 3", """
W = torch.randn(3, 1000)
passes = []
def f(t):
    t.register_hook(lambda grad: passes.append(1))  # once per backward pass through t
    return W @ t
J = torch.autograd.functional.jacobian(f, torch.randn(1000))
assert J.shape == (3, 1000) and len(passes) == 3
column = torch.func.jvp(lambda t: W @ t, (torch.randn(1000),), (torch.eye(1000)[7],))[1]
assert torch.allclose(column, W[:, 7])  # one forward pass: one column of 1,000
""", TORCH),
    # 07: node hooks get tuples and may replace them; retain_grad's copy comes before pre-hooks.
    ("07", "`y.grad_fn.register_hook(fn)` calls `fn(grad_inputs, grad_outputs)` after it ran", """
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
seen = []
y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_outputs[0].item())
                        or (grad_inputs[0] + 1, *grad_inputs[1:]))
y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
y.backward()
assert seen == [10.0] and x.grad.item() == 31.0
""", BOTH),
    ("07", "then `retain_grad()`'s copy, the node's pre-hooks", """
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
y.retain_grad()
y.register_hook(lambda grad: grad * 2)  # a tensor hook: the copy sees it
y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))  # comes after it
y.backward()
assert y.grad.item() == 2.0 and x.grad.item() == 60.0
""", BOTH),
    # 16: what is kept, and save_on_cpu.
    ("16", "each layer holds on to what its backward will need", """
layer = torch.nn.Linear(3, 2)
inputs = torch.randn(4, 3)
packed = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
    layer(inputs).sum().backward()
assert any(t.shape == inputs.shape and torch.equal(t, inputs) for t in packed)
""", BOTH),
    ("16", "PyTorch warns unless `use_reentrant` is passed, and recommends `False`", """
import warnings
x = torch.ones(2, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.utils.checkpoint.checkpoint(lambda t: t.sin(), x)
assert any("use_reentrant=False is recommended" in str(w.message) for w in caught)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.utils.checkpoint.checkpoint(lambda t: t.sin(), x, use_reentrant=False)
assert not any("use_reentrant" in str(w.message) for w in caught)
""", BOTH),
    ("16", "`sum` keeps only a shape", """
w = torch.ones(3, requires_grad=True)
packed = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
    total = w.sum()
assert packed == []
""", BOTH),
    ("16", "`torch.autograd.graph.save_on_cpu()` is a ready-made pair", """
hooks = torch.autograd.graph.save_on_cpu()
assert isinstance(hooks, torch.autograd.graph.saved_tensors_hooks)
w = torch.ones(3, requires_grad=True)
with hooks:
    y = (w * w).sum()
y.backward()
assert w.grad.tolist() == [2.0, 2.0, 2.0]
""", BOTH),
    # 12: the rules at points without a derivative.
    ("12", "(bowl-shaped, as `relu` and `abs` are at 0), the smallest slope (in size) of the "
     "lines touching it from below (there: 0)", """
for fn in (torch.relu, torch.abs):
    t = torch.tensor(0.0, requires_grad=True)
    fn(t).backward()
    assert t.grad.item() == 0.0
""", BOTH),
    ("12", "at $-1$, `sqrt`'s gradient is NaN and `log`'s is $-1$ (the formula $1/x$, applied "
     "anyway)", """
import math
t = torch.tensor(-1.0, requires_grad=True)
t.sqrt().backward()
assert math.isnan(t.grad.item())
t.grad = None
t.log().backward()
assert t.grad.item() == -1.0
""", BOTH),
    # 13: the engine from scratch, held against PyTorch's behaviour.
    ("13", "(our `.grad` is a numpy array, PyTorch's a tensor)", """
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * 2).sum().backward()
assert isinstance(w.grad, torch.Tensor)
""", BOTH),
    ("13", "PyTorch does this for every operation that broadcasts", """
x = torch.ones(4, 3) * 2
for op in (torch.add, torch.sub, torch.mul, torch.div, torch.maximum, torch.minimum):
    b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    column = torch.ones(4, 1, requires_grad=True)
    op(op(x, b), column).sum().backward()
    assert b.grad.shape == (3,) and column.grad.shape == (4, 1), op
""", BOTH),
    ("13", "as in PyTorch, a result of constants is a leaf, and no graph is kept for it", """
c = torch.tensor(10.0)
result = c + c * 2
assert result.is_leaf and result.grad_fn is None and not result.requires_grad
assert not (torch.tensor(1.0, requires_grad=True) + c).is_leaf
""", BOTH),
    ("13", "an intermediate result keeps nothing, and a tensor that does not require grad gets", """
x = torch.tensor([1.0, 2.0])
w = torch.tensor([3.0, 4.0], requires_grad=True)
h = x * w
(h * h).sum().backward()
assert x.grad is None and h.grad is None and w.grad is not None
""", BOTH),
    ("13", "and 0 elsewhere, at 0 too (PyTorch's choice)", """
t = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
torch.relu(t).sum().backward()
assert t.grad.tolist() == [0.0, 0.0, 1.0]
""", BOTH),
    ("13", "which sets each parameter's `.grad` to `None` (PyTorch's default, notebook 04)", """
w = torch.tensor([1.0], requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)
(w * 2).sum().backward()
optimizer.step()
optimizer.zero_grad()
assert w.grad is None and abs(w.item() - 0.8) < 1e-6
""", BOTH),
    ("13", "`mul_` raised `w`'s, `MulBackward0` saved the old number with `w`", """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * w).sum()
assert w._version == 0
with torch.no_grad():
    w.mul_(10)
assert w._version == 1
try:
    y.backward()
    raise AssertionError("no error")
except RuntimeError as error:
    assert "is at version 1; expected version 0 instead" in str(error)
""", BOTH),
]


def claim_id(row: tuple) -> str:
    words = " ".join(row[1].split())
    return f"{row[0]} {row[3]}: {words[:50]}"


def source_text(where: str) -> str:
    """The text a claim's words are looked for in, a lesson's source or a file, as one line:
    comment marks at the start of lines dropped, whitespace collapsed."""
    if re.fullmatch(r"\d\d", where):
        (path,) = (ROOT / "course").glob(f"{where}_*.py")
    else:
        path = ROOT / where
    text = re.sub(r"^\s*#+ ?", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return " ".join(text.split())


@pytest.mark.parametrize("row", CLAIMS, ids=claim_id)
def test_the_claim_is_still_made(row: tuple) -> None:
    where, words, _, _ = row
    assert words in source_text(where), f"{where} no longer says {words!r}: update this row"


def run(snippet: str, library: object) -> None:
    if snippet.lstrip().startswith("# fresh process"):
        subprocess.run([sys.executable, "-c", f"import {library.__name__} as torch\n{snippet}"],
                       check=True)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(snippet, "<claim>", "exec"), {"torch": library})  # noqa: S102 - ours


@pytest.mark.parametrize("row", CLAIMS, ids=claim_id)
def test_the_claim_holds_on_pytorch(row: tuple, torch: object) -> None:
    run(row[2], torch)


@pytest.mark.parametrize("row", [row for row in CLAIMS if row[3] == BOTH], ids=claim_id)
def test_the_claim_holds_on_minigrad(row: tuple) -> None:
    run(row[2], minigrad)


@pytest.mark.slow  # two fresh interpreters importing PyTorch
def test_pytorch_seeds_every_run_differently(torch: object) -> None:
    """14: "PyTorch seeds its random numbers differently on every run" (why it overwrites
    nn.Linear's start): two fresh processes start from different seeds and weights."""
    assert "PyTorch seeds its random numbers differently on every run" in source_text("14")
    script = "import torch; print(torch.initial_seed(), torch.nn.Linear(2, 2).weight.tolist())"
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)}
    assert len(runs) == 2, runs


def test_only_cells_that_draw_check_or_open_minigrad_are_left_out_on_pytorch() -> None:
    """00: "Cells that draw, check your answers ... or open minigrad's own engine ... are the
    only ones that do not run on PyTorch"."""
    assert "are the only ones that do not run on PyTorch" in source_text("00")
    for path in sorted((ROOT / "course").glob("[0-9][0-9]_*.py")):
        for cell in jupytext.read(path).cells:
            if "minigrad-only" in cell.metadata.get("tags", []):
                assert re.search(r"\bviz\b|minigrad_course|check\.|from minigrad|inspect",
                                 cell.source), f"{path.name}: {cell.source[:80]!r}"


def test_headings_are_markdown() -> None:
    """07's dead-ReLU heading was a comment at the end of a code cell: no heading, no table of
    contents entry. No code cell of a lesson holds a markdown heading."""
    for path in sorted((ROOT / "course").glob("[0-9][0-9]_*.py")):
        for cell in jupytext.read(path).cells:
            if cell.cell_type == "code":
                assert not re.search(r"^# #+ ", cell.source, re.MULTILINE), (
                    f"{path.name}: a heading in a code cell: {cell.source[:80]!r}")
