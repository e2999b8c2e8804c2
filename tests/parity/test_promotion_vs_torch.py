"""Operands of different dtypes, as PyTorch promotes them: inside the op. The result has the
promoted dtype; the node's next_functions are the operands' own (no ToCopyBackward0); each
gradient has its operand's dtype (a float32 leaf's .grad is float32, whatever the result's);
and the op saves the operand itself, so changing it in place before backward is refused with
PyTorch's version error rather than answered with its old values. Swept over ops, dtype
pairs, 0-d and dimensioned operands, Python numbers, and in-place changes of either operand,
value for value."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from harness.parity import WithArrays, assert_same_as_torch

# (name, op, rtol): binary ops that promote their tensor operands. Their values must match
# PyTorch's to the bit, except where numpy's and PyTorch's own functions (libm's pow and atan2,
# a fused multiply-add in add's alpha and lerp) differ in the last bit for one dtype alone:
# there, within rtol, and what promotion decides (dtypes, graph, errors) exactly.
BINARY: list[tuple[str, Callable[[Any, Any, Any], Any], float | None]] = [
    ("add", lambda lib, a, b: a + b, None),
    ("add_alpha", lambda lib, a, b: lib.add(a, b, alpha=3), 1e-6),
    ("sub", lambda lib, a, b: a - b, None),
    ("mul", lambda lib, a, b: a * b, None),
    ("div", lambda lib, a, b: a / b, None),
    ("pow", lambda lib, a, b: a.abs() ** b, 1e-6),
    ("maximum", lambda lib, a, b: lib.maximum(a, b), None),
    ("minimum", lambda lib, a, b: lib.minimum(a, b), None),
    ("remainder", lambda lib, a, b: a % b, None),
    ("fmod", lambda lib, a, b: lib.fmod(a, b), None),
    ("atan2", lambda lib, a, b: lib.atan2(a, b), 1e-6),
    ("where", lambda lib, a, b: lib.where(a > 0, a, b) * 1, None),
    ("lerp", lambda lib, a, b: lib.lerp(a, b, 0.3), 1e-6),
    ("dist", lambda lib, a, b: lib.dist(a, b), 1e-6),
    ("matmul", lambda lib, a, b: a @ b, None),
]
IDS = [name for name, _, _ in BINARY]
SHAPES = [((3,), ()), ((), (3,)), ((2, 3), (3,)), ((), ())]
FLOATS = ["float32", "float64"]


def _values(shape: tuple, seed: int) -> np.ndarray:
    """Values that float32 cannot hold exactly (a third, a tenth), so that where the operand
    is rounded to the op's dtype shows in the last bits."""
    n = int(np.prod(shape))
    return (np.arange(1, n + 1) * (1 / 3) + seed * 0.1).reshape(shape) * (-1) ** seed


def _case(op: Callable, dtypes: tuple, shapes: tuple, changed: int | None,
          grads: tuple = (True, True)) -> Callable[[Any], Any]:
    """op(a, b), then backward: what is shown is the dtypes, the graph and any error; the
    values are the arrays."""
    def case(lib: Any) -> Any:
        a, b = (lib.tensor(_values(s, i + 1).tolist(), dtype=getattr(lib, d), requires_grad=g)
                for i, (s, d, g) in enumerate(zip(shapes, dtypes, grads)))
        out = op(lib, a, b)
        names = [type(n).__name__ for n, _ in out.grad_fn.next_functions]
        if changed is not None:
            with lib.no_grad():
                (a, b)[changed].mul_(2)
        out.sum().backward()
        return WithArrays(
            (out.dtype, names, [None if t.grad is None else t.grad.dtype for t in (a, b)]),
            tuple(None if t.grad is None else t.grad.numpy() for t in (a, b))
            + (out.detach().numpy(),))
    return case


@pytest.mark.parametrize("dtypes", list(itertools.product(FLOATS, FLOATS)), ids=str)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("name,op,rtol", BINARY, ids=IDS)
def test_two_float_operands(torch: Any, name: str, op: Callable, rtol: float | None,
                            shapes: tuple, dtypes: tuple) -> None:
    assert_same_as_torch(_case(op, dtypes, shapes, None), torch, rtol)


@pytest.mark.parametrize("changed", [0, 1])
@pytest.mark.parametrize("name,op,rtol", BINARY, ids=IDS)
def test_an_operand_changed_in_place(torch: Any, name: str, op: Callable, rtol: float | None,
                                     changed: int) -> None:
    """What the op saved is the operand itself: its change is refused at backward (or, where
    nothing of it was saved, does not matter), as in PyTorch."""
    for dtypes, shapes in itertools.product([("float32", "float64"), ("float64", "float32")],
                                            [((3,), ()), ((), (3,))]):
        assert_same_as_torch(_case(op, dtypes, shapes, changed), torch, rtol)


@pytest.mark.parametrize("name,op,rtol", [row for row in BINARY if row[0] != "matmul"],
                         ids=[name for name in IDS if name != "matmul"])
def test_an_operand_that_needs_no_gradient(torch: Any, name: str, op: Callable,
                                           rtol: float | None) -> None:
    """A float64 operand without grad beside a float32 one that has it (and the other way
    round): the node keeps it as an input, not a copy, and still refuses its change."""
    for dtypes, changed in itertools.product([("float32", "float64"), ("float64", "float32")],
                                             [None, 1]):
        assert_same_as_torch(_case(op, dtypes, ((3,), ()), changed, (True, False)), torch,
                             rtol)


@pytest.mark.parametrize("other", ["int64", "int32", "bool"])
def test_an_integer_operand(torch: Any, other: str) -> None:
    """An integer or bool tensor beside a float one that requires grad: promoted inside the
    op, saved as it is, so changing it in place is refused too."""
    def case(lib: Any) -> Any:
        x = lib.tensor([0.1, 0.2, 0.3], requires_grad=True)
        k = lib.tensor([1, 0, 3], dtype=getattr(lib, other))
        out = x * k
        names = [type(n).__name__ for n, _ in out.grad_fn.next_functions]
        k.add_(True if other == "bool" else 1)
        out.sum().backward()
        return out, names
    assert_same_as_torch(case, torch)


@pytest.mark.parametrize("number", [0.1, 3, True, 1e300])
@pytest.mark.parametrize("dtype", FLOATS)
def test_a_python_number_keeps_the_tensors_dtype(torch: Any, dtype: str, number: Any) -> None:
    def case(lib: Any) -> Any:
        x = lib.tensor([1 / 3, -2.0], dtype=getattr(lib, dtype), requires_grad=True)
        out = x * number + number / (x + 1)
        out.sum().backward()
        return WithArrays((out, x.grad), (out.detach().numpy(), x.grad.numpy()))
    assert_same_as_torch(case, torch)


@pytest.mark.parametrize("target", ["ga", "gb"])
def test_second_derivative_through_a_promoted_operand(torch: Any, target: str) -> None:
    def case(lib: Any) -> Any:
        a = lib.tensor([1 / 3, 2.0], dtype=lib.float64, requires_grad=True)
        b = lib.tensor(0.1, requires_grad=True)
        out = (a * b * a / b).sum()
        ga, gb = lib.autograd.grad(out, [a, b], create_graph=True)
        (ga.sum() if target == "ga" else gb).backward()
        return WithArrays((ga, gb, a.grad, b.grad), (a.grad.numpy(), b.grad.numpy()))
    assert_same_as_torch(case, torch)


def test_saved_operand_reads_as_itself(torch: Any) -> None:
    def case(lib: Any) -> Any:
        x = lib.tensor(0.1, dtype=lib.float64, requires_grad=True)
        y = lib.tensor([1.0, 2.0], requires_grad=True)
        node = (y * x).grad_fn
        return node._saved_other is x, node._saved_self is y, node._saved_other
    assert_same_as_torch(case, torch)


@pytest.mark.parametrize("op", ["cat", "stack"])
@pytest.mark.parametrize("changed", [None, 1])
def test_cat_and_stack_promote_inside(torch: Any, op: str, changed: int | None) -> None:
    """cat and stack of a float32 and a float64 tensor: float64, with each operand's own
    history as its edge (a slice's SliceBackward0 too), no recorded copy."""
    def case(lib: Any) -> Any:
        a = lib.tensor([1 / 3, 2.0], requires_grad=True)
        b = lib.tensor([0.1], dtype=lib.float64, requires_grad=True)
        out = getattr(lib, op)([a[:1], b])
        names = [type(n).__name__ for n, _ in out.grad_fn.next_functions]
        if changed is not None:
            with lib.no_grad():
                b.mul_(2)
        (out * out).sum().backward()
        return WithArrays((out, names, a.grad, b.grad), (a.grad.numpy(), b.grad.numpy()))
    assert_same_as_torch(case, torch)
