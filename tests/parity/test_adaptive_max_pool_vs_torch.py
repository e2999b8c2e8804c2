"""nn.AdaptiveMaxPool1d/2d and F.adaptive_max_pool1d/2d, added in session 7, against PyTorch
2.13: values and indices (ties: the first largest; NaN: the last), gradients (windows overlap
when sizes do not divide), graphs, second derivatives, printed modules and errors."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from harness.parity import WithArrays, assert_same_as_torch


def _pooled(lib: Any, pool: str, shape: tuple, output_size: Any, dtype: str) -> WithArrays:
    values = np.random.default_rng(len(shape)).integers(-4, 5, size=shape) / 2  # ties
    x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
    pooled = getattr(lib.nn.functional, pool)
    out, indices = pooled(x, output_size, return_indices=True)
    weights = lib.arange(1, out.numel() + 1, dtype=out.dtype).reshape(out.shape)
    (g,) = lib.autograd.grad((out * weights).sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad((g * g).sum(), x, allow_unused=True)
    return WithArrays([out, indices, out.grad_fn, g.grad_fn, gg],
                      (out.detach().numpy(), indices.numpy(), g.detach().numpy()))


TWO_D, ONE_D = "adaptive_max_pool2d", "adaptive_max_pool1d"
CASES = [(TWO_D, (2, 3, 5, 7), (3, 4)), (TWO_D, (3, 6, 6), 2), (TWO_D, (1, 2, 5, 4), (None, 3)),
         (TWO_D, (2, 4, 3), (5, 2)), (ONE_D, (2, 1, 9), 4), (ONE_D, (3, 7), 3)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("pool, shape, output_size", CASES, ids=str)
def test_adaptive_max_pool(torch: Any, pool: str, shape: tuple, output_size: Any,
                           dtype: str) -> None:
    assert_same_as_torch(lambda lib: _pooled(lib, pool, shape, output_size, dtype), torch)


def _nan_and_modules(lib: Any) -> Any:
    x = lib.tensor([[[1.0, 3.0, 3.0, float("nan"), 2.0, float("nan"), 0.5]]], requires_grad=True)
    v, i = lib.nn.AdaptiveMaxPool1d(3, return_indices=True)(x)
    v.sum().backward()
    return [v, i, x.grad, lib.nn.AdaptiveMaxPool2d((3, None)), lib.nn.AdaptiveMaxPool1d(3),
            lib.nn.AdaptiveMaxPool2d(2)(lib.ones(1, 4, 4))]


ERRORS = {
    "2d_of_2d": lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(5, 7), 2),
    "empty": lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(1, 0, 7), 2),
    "integers": lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(1, 3, 7).long(), 2),
    "1d_of_1d": lambda lib: lib.nn.functional.adaptive_max_pool1d(lib.ones(7), 2),
    "sizes": lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(1, 3, 7), (1, 2, 3)),
}


@pytest.mark.parametrize("case", [_nan_and_modules, *ERRORS.values()],
                         ids=["nan_and_modules", *ERRORS])
def test_forms_and_errors(torch: Any, case: Any) -> None:
    assert_same_as_torch(case, torch)
