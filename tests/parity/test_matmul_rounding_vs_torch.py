"""Products with a short inner dimension print what PyTorch prints, to the last bit.

PyTorch's CPU build rounds each product of a thin matrix product before adding them
(minigrad/fidelity/products.py says which shapes); numpy fuses them. The first case is d2l's
linear regression, `X @ w` with two features, whose trained weights showed the difference in
their fourth digit. Each case runs the same numbers through minigrad and torch 2.13 and asks
for equal bits. The gradients of these products sum over the long dimension (`X.T @ grad`),
which MKL adds in orders of its own that minigrad does not repeat: not compared here."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

SHAPES = [  # (left, right): the thin products where the two libraries round differently
    ((1000, 2), (2, 1)), ((100, 3), (3, 8)), ((2, 4), (4, 64)), ((1, 3), (3, 500)),
    ((100, 2), (2,)), ((2,), (2,)), ((4,), (4, 30)), ((5, 50, 4), (5, 4, 1)), ((7, 20, 2), (2, 3)),
]
DTYPES = ["float32", "float64"]


def _pair(shapes: tuple, dtype: str) -> list[np.ndarray]:
    rng = np.random.default_rng(sum(map(sum, shapes)))
    return [rng.standard_normal(shape).astype(dtype) for shape in shapes]


def _bits(t: Any) -> np.ndarray:
    return np.atleast_1d(t.detach().numpy()).view(np.uint8)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_a_thin_product_rounds_as_torchs(torch: Any, shapes: tuple, dtype: str) -> None:
    arrays = _pair(shapes, dtype)
    ours, theirs = (_bits(lib.tensor(arrays[0]) @ lib.tensor(arrays[1])) for lib in (minigrad, torch))
    assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_products_that_are_all_negative_zero_add_up_to_positive_zero(torch: Any, shapes: tuple,
                                                                      dtype: str) -> None:
    """-1 times 0 is -0.0 each time; PyTorch's sum of them starts from +0.0 and prints `0.`,
    not `-0.` (test_engine_parity found it: a log that came to 0 times a negative leaf)."""
    left, right = -np.ones(shapes[0], dtype), np.zeros(shapes[1], dtype)
    ours, theirs = (_bits(lib.tensor(left) @ lib.tensor(right)) for lib in (minigrad, torch))
    assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("features", [1, 2, 3])
def test_a_linear_layer_on_few_features_rounds_as_torchs(torch: Any, features: int) -> None:
    x, w = _pair(((64, features), (1, features)), "float32")
    bias = np.float32([0.25])
    outputs = []
    for lib in (minigrad, torch):
        layer = lib.nn.Linear(features, 1)
        with lib.no_grad():
            layer.weight.copy_(lib.tensor(w))
            layer.bias.copy_(lib.tensor(bias))
        outputs.append(_bits(layer(lib.tensor(x))))
    assert np.array_equal(*outputs)
