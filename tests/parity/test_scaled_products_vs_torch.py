"""addmm, addmv, baddbmm, addbmm (beta · input + alpha · a product) and kron, added in session 7,
against PyTorch 2.13: values, gradients (and second derivatives), grad_fn graphs, in-place
forms, broadcasting of the input, integer dtypes and argument errors.

Inputs of halves and small integers make every product exact, so those compare to the bit;
random inputs compare within a relative 2e-5 (float32) / 1e-13 (float64), a few ulps where
a sum cancels: PyTorch hands
these products to MKL's gemm, whose order of additions depends on shapes and strides
(ops/scaled_products.py)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from harness.parity import WithArrays, assert_same_as_torch


def _names(t: Any) -> list:
    seen, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        seen.append(node.name().replace("torch::autograd::", ""))
        stack += [f for f, _ in node.next_functions]
    return seen


def _values(shape: tuple, seed: int, exact: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if exact:
        return rng.integers(-6, 7, size=shape) / 2
    return rng.standard_normal(shape)


def _graded(lib: Any, make: Any, shapes: tuple, exact: bool, dtype: str,
            second: bool = False) -> WithArrays:
    """make(*leaves) for leaves of the given shapes; its value, graph and the gradients of a
    weighted sum (with second, the gradients of the gradients' squares' sum too)."""
    leaves = [lib.tensor(_values(s, i, exact), dtype=getattr(lib, dtype), requires_grad=True)
              for i, s in enumerate(shapes)]
    out = make(lib, *leaves)
    weights = lib.arange(1, out.numel() + 1, dtype=out.dtype).reshape(out.shape) / 8
    grads = lib.autograd.grad((out * weights).sum(), leaves, create_graph=second)
    arrays = [out.detach().numpy(), *(g.detach().numpy() for g in grads)]
    shown = [out, _names(out), *grads]
    if second:
        grads2 = lib.autograd.grad(sum((g * g).sum() for g in grads), leaves, allow_unused=True)
        arrays += [g if g is None else g.numpy() for g in grads2]
        shown += [[g.grad_fn.name() for g in grads], *grads2]
    return WithArrays(shown if exact else [out.shape, _names(out)], tuple(arrays))


CASES = {
    "addmm": (lambda lib, c, a, b: lib.addmm(c, a, b), ((3, 5), (3, 4), (4, 5))),
    "addmm_scaled": (lambda lib, c, a, b: c.addmm(a, b, beta=0.5, alpha=2.0),
                     ((3, 5), (3, 4), (4, 5))),
    "addmm_bias_row": (lambda lib, c, a, b: lib.addmm(c, a, b, beta=1.5, alpha=-0.5),
                       ((5,), (3, 4), (4, 5))),
    "addmm_beta_zero": (lambda lib, c, a, b: lib.addmm(c, a, b, beta=0),
                        ((1, 5), (6, 7), (7, 5))),
    "addmm_transposed": (lambda lib, c, a, b: lib.addmm(c, a, b.t(), alpha=3),
                         ((2, 3), (2, 4), (3, 4))),
    "addmv": (lambda lib, c, a, v: lib.addmv(c, a, v, beta=2, alpha=0.5), ((3,), (3, 4), (4,))),
    "addmv_number": (lambda lib, c, a, v: c.addmv(a, v), ((), (3, 2), (2,))),
    "baddbmm": (lambda lib, c, a, b: lib.baddbmm(c, a, b, beta=0.5, alpha=1.5),
                ((2, 3, 5), (2, 3, 4), (2, 4, 5))),
    "baddbmm_broadcast": (lambda lib, c, a, b: c.baddbmm(a, b), ((3, 1), (2, 3, 4), (2, 4, 2))),
    "addbmm": (lambda lib, c, a, b: lib.addbmm(c, a, b, beta=2, alpha=0.25),
               ((3, 5), (4, 3, 2), (4, 2, 5))),
    "kron": (lambda lib, a, b: lib.kron(a, b), ((2, 3), (2, 2))),
    "kron_ranks": (lambda lib, a, b: a.kron(b), ((2,), (3, 2, 1))),
    "kron_number": (lambda lib, a, b: lib.kron(a, b), ((), (3,))),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_values_gradients_and_second_derivatives(torch: Any, name: str,
                                                        dtype: str) -> None:
    make, shapes = CASES[name]
    assert_same_as_torch(lambda lib: _graded(lib, make, shapes, True, dtype, second=True),
                         torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_random_values_within_an_ulp_or_two(torch: Any, name: str, dtype: str) -> None:
    make, shapes = CASES[name]
    assert_same_as_torch(lambda lib: _graded(lib, make, shapes, False, dtype), torch,
                         rtol=2e-5 if dtype == "float32" else 1e-13)


def _in_place(lib: Any) -> Any:
    a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = lib.tensor([[0.5, -1.0], [2.0, 0.0]])
    c = lib.ones(2, 2) * 1  # not a leaf
    c.addmm_(a, b, beta=0.5, alpha=2)
    c.sum().backward()
    d = lib.ones(2, 3, 2)
    d.baddbmm_(lib.ones(2, 3, 1), lib.ones(2, 1, 2), alpha=3)
    e = lib.zeros(2)
    e.addmv_(b, lib.tensor([1.0, 1.0]))
    f = lib.zeros(3, 2)
    f.addbmm_(lib.ones(4, 3, 1), lib.ones(4, 1, 2))
    return [c, c.grad_fn.name(), a.grad, d, e, f]


def _integers(lib: Any) -> Any:
    c, a, b = lib.ones(3, 5).long(), lib.ones(3, 4).long(), lib.ones(4, 5).long()
    return [lib.addmm(c, a, b, beta=2, alpha=3), lib.addmm(c, a, b, beta=0.5),
            lib.kron(lib.arange(2), lib.arange(3.0)), lib.kron(lib.tensor([[1, 2]]),
                                                               lib.tensor([[True], [False]]))]


def _nan_input_with_beta_zero(lib: Any) -> Any:
    c = lib.tensor([[float("nan"), float("inf")]])
    return [lib.addmm(c, lib.ones(1, 2), lib.ones(2, 2), beta=0),
            lib.addmm(c, lib.ones(1, 2), lib.ones(2, 2), beta=1)]


@pytest.mark.parametrize("case", [_in_place, _integers, _nan_input_with_beta_zero],
                         ids=lambda f: f.__name__[1:])
def test_forms(torch: Any, case: Any) -> None:
    assert_same_as_torch(case, torch)


A, B, C = (3, 4), (4, 5), (3, 5)
ERRORS = {
    "mm_shapes": lambda lib: lib.addmm(lib.ones(*C), lib.ones(*A), lib.ones(5, 5)),
    "mat1_vector": lambda lib: lib.addmm(lib.ones(*C), lib.ones(4), lib.ones(*B)),
    "mat2_vector": lambda lib: lib.addmm(lib.ones(*C), lib.ones(*A), lib.ones(4)),
    "input_row": lambda lib: lib.addmm(lib.ones(4), lib.ones(*A), lib.ones(*B)),
    "input_rows": lambda lib: lib.addmm(lib.ones(2, 5), lib.ones(*A), lib.ones(*B)),
    "mat_dtypes": lambda lib: lib.addmm(lib.ones(*C), lib.ones(*A), lib.ones(*B).double()),
    "input_dtype": lambda lib: lib.addmm(lib.ones(*C).double(), lib.ones(*A), lib.ones(*B)),
    "in_place_shape": lambda lib: lib.ones(5).addmm_(lib.ones(*A), lib.ones(*B)),
    "mv_vec": lambda lib: lib.addmv(lib.ones(3), lib.ones(*A), lib.ones(5)),
    "mv_ranks": lambda lib: lib.addmv(lib.ones(3), lib.ones(*A), lib.ones(4, 1)),
    "mv_input": lambda lib: lib.addmv(lib.ones(2), lib.ones(*A), lib.ones(4)),
    "bmm_inner": lambda lib: lib.baddbmm(lib.ones(2, 3, 5), lib.ones(2, 3, 4),
                                         lib.ones(2, 5, 5)),
    "bmm_2d": lambda lib: lib.baddbmm(lib.ones(2, 3, 5), lib.ones(3, 4), lib.ones(2, 4, 5)),
    "bmm_batches": lambda lib: lib.baddbmm(lib.ones(2, 3, 5), lib.ones(2, 3, 4),
                                           lib.ones(3, 4, 5)),
    "addbmm_batches": lambda lib: lib.addbmm(lib.ones(3, 5), lib.ones(2, 3, 4),
                                             lib.ones(3, 4, 5)),
    "addbmm_2d": lambda lib: lib.addbmm(lib.ones(3, 5), lib.ones(3, 4), lib.ones(3, 4, 5)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors(torch: Any, name: str) -> None:
    assert_same_as_torch(ERRORS[name], torch)
