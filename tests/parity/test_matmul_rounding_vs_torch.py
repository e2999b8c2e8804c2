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


# An inner dimension of 1: PyTorch's matrix product is the plain products (a -0.0 stays -0.0),
# its matrix-vector and batched products add them to +0.0, as numpy's BLAS does everything.
OUTER_SHAPES = [((100, 1), (1, 16)), ((2, 1), (1, 2)), ((5, 1), (1, 300)), ((3, 7, 1), (1, 4)),
                ((1, 1), (1, 9)), ((9, 1), (1, 1)), ((6, 1), (1,)), ((1,), (1, 5)),
                ((4, 3, 1), (4, 1, 7)), ((3, 1), (2, 1, 7))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", OUTER_SHAPES, ids=str)
def test_an_outer_product_keeps_torchs_zero_signs(torch: Any, shapes: tuple,
                                                  dtype: str) -> None:
    left, right = _pair(shapes, dtype)
    left[::2] = 0.0  # zeros times weights of both signs: -0.0 and +0.0 products
    right[..., ::3] = -0.0
    ours, theirs = (_bits(lib.tensor(left) @ lib.tensor(right)) for lib in (minigrad, torch))
    assert np.array_equal(ours, theirs)


def test_the_last_layers_input_gradient_keeps_torchs_zero_signs(torch: Any) -> None:
    """MmBackward0 of `h @ W` with W (16, 1): the gradient (100, 1) @ W.T (1, 16), where a
    hinge loss's zero gradients times negative weights are -0.0 in PyTorch."""
    rng = np.random.default_rng(7)
    h, w = rng.standard_normal((100, 16)).astype("float32"), rng.standard_normal((16, 1))
    upstream = np.where(rng.random((100, 1)) < 0.5, 0.0, rng.standard_normal((100, 1)))
    grads = []
    for lib in (minigrad, torch):
        x = lib.tensor(h, requires_grad=True)
        (x @ lib.tensor(w.astype("float32"))).backward(lib.tensor(upstream.astype("float32")))
        grads.append(_bits(x.grad))
    assert np.array_equal(*grads)
