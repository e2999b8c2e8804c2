"""torch.autograd.graph.allow_mutation_on_saved_tensors against PyTorch 2.13: a saved tensor
changed in place inside the context gives backward the values it saved (its docstring's
example, a saved output, a tensor saved twice, changed twice), a tensor not changed is read as
itself, and the errors: backward after the context, nested contexts, and the usual version
error outside it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from harness.parity import WithArrays, assert_same_as_torch


def _docstring_example(lib: Any) -> Any:
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        a = lib.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        changed = b.sin_()
        out.sum().backward()
    return WithArrays((changed, a.grad), (a.grad.numpy(),))


def _output_and_twice(lib: Any) -> Any:
    with lib.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = x * 1
        e = y.exp()  # saves its output
        z = (y * y).sum() + e.sum() + (y * 3 * y).sum()  # y saved four times
        y.mul_(3)
        y.add_(1)  # a second change: backward still reads the values saved
        e.add_(1)
        z.backward()
    return WithArrays((x.grad, y, type(ctx).__name__), (x.grad.numpy(),))


def _unchanged(lib: Any) -> Any:
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        x = lib.tensor([0.5, -1.0], requires_grad=True)
        w = x * 2
        s = (w * w).sum()
        (g,) = lib.autograd.grad(s, x)
        other = w.clone()
        other.zero_()  # a copy changed: nothing saved is
        return WithArrays((g, s.grad_fn.next_functions[0][0]._saved_self), (g.numpy(),))


def _after_the_context(lib: Any) -> Any:
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        x = lib.tensor([1.5], requires_grad=True)
        s = x.clone() * x.clone()
    s.backward()


def _nested(lib: Any) -> Any:
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        with lib.autograd.graph.allow_mutation_on_saved_tensors():
            pass


def _outside(lib: Any) -> Any:
    x = lib.tensor([1.5], requires_grad=True)
    w = x.clone()
    s = w * w
    w.add_(1)
    s.backward()


CASES: dict[str, Callable[[Any], Any]] = {
    "docstring example": _docstring_example, "saved output, saved twice": _output_and_twice,
    "nothing changed": _unchanged, "backward after the context": _after_the_context,
    "nested": _nested, "outside the context": _outside}


@pytest.mark.parametrize("name", CASES)
def test_allow_mutation_on_saved_tensors(torch: Any, name: str) -> None:
    assert_same_as_torch(CASES[name], torch)


# What a write clones, by where it writes: PyTorch clones a saved tensor only when the tensor
# written has the saved one's address and version (torch.autograd.graph._get_sid, "almost
# definitely a bug" in its own words); otherwise backward reads the changed values.
WRITES: dict[str, Callable[[Any, Any], Any]] = {
    "base written, a view at an offset saved": lambda lib, y: (
        lambda v: ((v * v).sum(), y.mul_(3))[0])(y[1:]),
    "base written, a view at its address saved": lambda lib, y: (
        lambda v: ((v * v).sum(), y.mul_(3))[0])(y[:2]),
    "a part at an offset written, then the base": lambda lib, y: (
        (y * y).sum(), y.__setitem__(slice(1, None), 5.0), y.mul_(3))[0],
    "its first element written": lambda lib, y: ((y * y).sum(), y.__setitem__(0, 5.0))[0],
    "elements picked by a list written": lambda lib, y: (
        (y * y).sum(), y.__setitem__([0, 2], 7.0))[0],
    "a view at an offset written, the view saved again": lambda lib, y: (
        lambda v: ((v * v).sum(), y[1:].mul_(2))[0])(y[1:]),
    "a view written, then the base": lambda lib, y: (
        (y * y).sum(), y[1:].mul_(2), y.mul_(2))[0],
    "a detached alias written": lambda lib, y: ((y * y).sum(), y.detach().add_(1))[0],
    "`.data` written": lambda lib, y: ((y * y).sum(), y.data.add_(1))[0],
    "zeroed": lambda lib, y: ((y * y).sum(), y.zero_())[0],
    "unsqueezed in place": lambda lib, y: ((y * y).sum(), y.unsqueeze_(0))[0],
    "a saved output written at an offset": lambda lib, y: (
        lambda e: (e.sum(), e.__setitem__(slice(1, None), 0.0))[0])(y.exp()),
}


@pytest.mark.parametrize("write", WRITES)
def test_what_a_write_clones(torch: Any, write: str) -> None:
    def case(lib: Any) -> Any:
        with lib.autograd.graph.allow_mutation_on_saved_tensors():
            x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
            WRITES[write](lib, x * 1).backward()
        return WithArrays(x.grad, (x.grad.numpy(),))
    assert_same_as_torch(case, torch)


def test_an_optimizer_step_on_a_saved_leaf(torch: Any) -> None:
    def case(lib: Any) -> Any:
        with lib.autograd.graph.allow_mutation_on_saved_tensors():
            w = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
            z = (w * w).sum()
            w.grad = lib.ones(3)
            lib.optim.SGD([w], lr=0.1).step()
            w.grad = None
            z.backward()
        return WithArrays(w.grad, (w.grad.numpy(),))
    assert_same_as_torch(case, torch)
