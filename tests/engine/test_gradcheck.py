"""Every differentiable element-wise op, reduction and product against finite differences
(float64), on hypothesis-drawn shapes that broadcast and values kept away from kinks, poles and
ties; the smooth ones also to second order, through create_graph. Shape ops, indexing and
in-place ops: test_gradcheck_shapes.py."""
from __future__ import annotations

from typing import Any, Callable

import pytest
from _gradcheck_support import (
    check,
    check_second_order,
    dims_of,
    leaf,
    moderate,
    pairs,
    seeds,
    shapes,
)
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck

UNARY: dict[str, tuple[Callable, str]] = {
    "neg": (lambda x: -x, "any"),
    "neg()": (lambda x: x.neg(), "any"),
    "abs": (lambda x: x.abs(), "nonzero"),
    "exp": (lambda x: x.exp(), "any"),
    "log": (lambda x: x.log(), "positive"),
    "sqrt": (lambda x: x.sqrt(), "positive"),
    "sin": (lambda x: x.sin(), "any"),
    "cos": (lambda x: x.cos(), "any"),
    "tanh": (lambda x: x.tanh(), "any"),
    "sigmoid": (lambda x: x.sigmoid(), "any"),
    "relu": (lambda x: x.relu(), "nonzero"),
    "clamp": (lambda x: x.clamp(-0.5, 0.5), "off-bounds"),
    "clamp min": (lambda x: x.clamp(min=-0.5), "off-bounds"),
    "clamp max": (lambda x: mg.clamp(x, max=0.5), "off-bounds"),
    "reciprocal": (lambda x: x.reciprocal(), "nonzero"),
    "x ** 2": (lambda x: x**2, "any"),
    "x ** 3": (lambda x: x**3, "any"),
    "x ** 1": (lambda x: x**1, "any"),
    "x ** 0": (lambda x: x**0, "any"),
    "x ** 0.5": (lambda x: x**0.5, "positive"),
    "x ** -1.5": (lambda x: x**-1.5, "positive"),
    "pow(x, 2.5)": (lambda x: mg.pow(x, 2.5), "positive"),
    "2 ** x": (lambda x: 2**x, "any"),
    "0.5 ** x": (lambda x: 0.5**x, "any"),
    "2 / x": (lambda x: 2 / x, "nonzero"),
    "1 - x": (lambda x: 1 - x, "any"),
    "x - 1": (lambda x: x - 1, "any"),
    "3 + x": (lambda x: 3 + x, "any"),
    "x * 1.5": (lambda x: x * 1.5, "any"),
    "2 * x": (lambda x: 2 * x, "any"),
    "x / 4": (lambda x: x / 4, "any"),
    "clone": (lambda x: x.clone(), "any"),
    "leaky_relu": (lambda x: mg.nn.functional.leaky_relu(x, 0.2), "nonzero"),
    "LeakyReLU()": (lambda x: mg.nn.LeakyReLU()(x), "nonzero"),
}
SMOOTH_UNARY = ["exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal", "x ** 3",
                "x ** 0.5", "x ** -1.5", "2 ** x", "2 / x"]

BINARY: dict[str, tuple[Callable, str, str]] = {
    "a + b": (lambda a, b: a + b, "any", "any"),
    "add alpha": (lambda a, b: a.add(b, alpha=2.5), "any", "any"),
    "a - b": (lambda a, b: a - b, "any", "any"),
    "sub alpha": (lambda a, b: mg.sub(a, b, alpha=-3), "any", "any"),
    "a * b": (lambda a, b: a * b, "any", "any"),
    "a / b": (lambda a, b: a / b, "any", "nonzero"),
    "a ** b": (lambda a, b: a**b, "positive", "any"),
    "pow(a, b)": (lambda a, b: a.pow(b), "positive", "any"),
    "where": (lambda a, b: mg.where(a > 0, a, b), "nonzero", "any"),
}
SMOOTH_BINARY = ["a * b", "a / b", "a ** b"]


@pytest.mark.parametrize("name", UNARY)
@moderate
@given(shape=shapes, seed=seeds)
def test_unary(name: str, shape: tuple, seed: int) -> None:
    fn, domain = UNARY[name]
    check(fn, leaf(shape, seed, domain))


@pytest.mark.parametrize("name", SMOOTH_UNARY)
@moderate
@given(shape=shapes, seed=seeds)
def test_unary_second_order(name: str, shape: tuple, seed: int) -> None:
    fn, domain = UNARY[name]
    check_second_order(fn, leaf(shape, seed, domain))


@pytest.mark.parametrize("name", BINARY)
@moderate
@given(shapes=pairs, seed=seeds)
def test_binary_broadcasting(name: str, shapes: Any, seed: int) -> None:
    fn, domain_a, domain_b = BINARY[name]
    shape_a, shape_b = shapes.input_shapes
    check(fn, leaf(shape_a, seed, domain_a), leaf(shape_b, seed + 1, domain_b))


@pytest.mark.parametrize("name", SMOOTH_BINARY)
@moderate
@given(shapes=pairs, seed=seeds)
def test_binary_second_order(name: str, shapes: Any, seed: int) -> None:
    fn, domain_a, domain_b = BINARY[name]
    shape_a, shape_b = shapes.input_shapes
    check_second_order(fn, leaf(shape_a, seed, domain_a), leaf(shape_b, seed + 1, domain_b))


def test_where_with_constant_branch() -> None:
    x = leaf((3, 4), 7)
    check(lambda x: mg.where(x > 0, x * 2, 0.0), x)


def test_to_dtype_round_trip() -> None:
    """float64 -> float32 -> float64 is linear; float32 rounding needs a larger eps."""
    x = leaf((2, 3), 3)
    assert gradcheck(lambda x: (x.to(mg.float32) * 3).to(mg.float64), (x,), eps=1e-2, atol=1e-3)
    check(lambda x: x.to(mg.float64) * x.double(), x)  # same dtype: no copy, still differentiable


REDUCTIONS: dict[str, Callable] = {
    "sum": lambda x, d, k: x.sum(),
    "sum(dim)": lambda x, d, k: x.sum(d, keepdim=k),
    "sum(dims)": lambda x, d, k: x.sum(dim=(d, 0), keepdim=k) if d % max(x.ndim, 1) else x.sum(d),
    "mean": lambda x, d, k: x.mean(),
    "mean(dim)": lambda x, d, k: x.mean(d, keepdim=k),
    "mean(dims)": lambda x, d, k: mg.mean(x, (0, d), k) if d % max(x.ndim, 1) else x.mean(d),
    "max": lambda x, d, k: x.max(),
    "min": lambda x, d, k: mg.min(x),
    "max(dim)": lambda x, d, k: x.max(d, keepdim=k).values,
    "min(dim)": lambda x, d, k: x.min(dim=d, keepdim=k)[0],
    "norm": lambda x, d, k: x.norm(),
    "norm(dim)": lambda x, d, k: x.norm(dim=d, keepdim=k),
    "linalg.norm(dim)": lambda x, d, k: mg.linalg.norm(x, dim=d, keepdim=k),
    "vector_norm(1, dim)": lambda x, d, k: mg.linalg.vector_norm(x, 1, d, k),
    "vector_norm(3, dim)": lambda x, d, k: mg.linalg.vector_norm(x, 3, d, k),
    "vector_norm(1.5, dim)": lambda x, d, k: mg.norm(x, 1.5, d, k),
    "vector_norm(inf, dim)": lambda x, d, k: mg.linalg.vector_norm(x, float("inf"), d, k),
}


@pytest.mark.parametrize("name", REDUCTIONS)
@moderate
@given(data=st.data(), shape=shapes, keepdim=st.booleans(), seed=seeds)
def test_reduction(name: str, data: Any, shape: tuple, keepdim: bool, seed: int) -> None:
    dim = data.draw(dims_of(shape))
    check(lambda x: REDUCTIONS[name](x, dim, keepdim), leaf(shape, seed, "distinct"))


@pytest.mark.parametrize("name", ["sum(dim)", "mean(dims)", "max(dim)", "norm(dim)",
                                  "vector_norm(3, dim)"])
@moderate
@given(data=st.data(), shape=shapes, keepdim=st.booleans(), seed=seeds)
def test_reduction_second_order(name: str, data: Any, shape: tuple, keepdim: bool,
                                seed: int) -> None:
    dim = data.draw(dims_of(shape))
    x = leaf(shape, seed, "distinct")
    check_second_order(lambda x: REDUCTIONS[name](x * x, dim, keepdim), x)


sides = st.integers(1, 3)
# name: (shapes of the two operands from sizes b (batch), m, k, n; the product)
PRODUCTS: dict[str, tuple[Callable, Callable]] = {
    "mm": (lambda b, m, k, n: ((m, k), (k, n)), lambda a, c: a.mm(c)),
    "mv": (lambda b, m, k, n: ((m, k), (k,)), lambda a, c: mg.mv(a, c)),
    "dot": (lambda b, m, k, n: ((k,), (k,)), lambda a, c: a.dot(c)),
    "1-D @ 1-D": (lambda b, m, k, n: ((k,), (k,)), lambda a, c: a @ c),
    "2-D @ 1-D": (lambda b, m, k, n: ((m, k), (k,)), lambda a, c: a @ c),
    "1-D @ 2-D": (lambda b, m, k, n: ((k,), (k, n)), lambda a, c: a @ c),
    "2-D @ 2-D": (lambda b, m, k, n: ((m, k), (k, n)), lambda a, c: a.matmul(c)),
    "3-D @ 2-D": (lambda b, m, k, n: ((b, m, k), (k, n)), lambda a, c: a @ c),
    "2-D @ 3-D": (lambda b, m, k, n: ((m, k), (b, k, n)), lambda a, c: a @ c),
    "3-D @ 3-D": (lambda b, m, k, n: ((b, m, k), (b, k, n)), lambda a, c: a @ c),
    "3-D @ 1-D": (lambda b, m, k, n: ((b, m, k), (k,)), lambda a, c: a @ c),
    "1-D @ 3-D": (lambda b, m, k, n: ((k,), (b, k, n)), lambda a, c: a @ c),
    "broadcast batch": (lambda b, m, k, n: ((1, m, k), (b, 1, k, n)), lambda a, c: mg.matmul(a, c)),
}


@pytest.mark.parametrize("name", PRODUCTS)
@moderate
@given(sizes=st.tuples(sides, sides, sides, sides), seed=seeds)
def test_product(name: str, sizes: tuple, seed: int) -> None:
    operand_shapes, product = PRODUCTS[name]
    shape_a, shape_b = operand_shapes(*sizes)
    a, b = leaf(shape_a, seed), leaf(shape_b, seed + 1)
    check(product, a, b)


@pytest.mark.parametrize("name", ["mm", "mv", "dot", "3-D @ 2-D"])
@moderate
@given(sizes=st.tuples(sides, sides, sides, sides), seed=seeds)
def test_product_second_order(name: str, sizes: tuple, seed: int) -> None:
    operand_shapes, product = PRODUCTS[name]
    shape_a, shape_b = operand_shapes(*sizes)
    check_second_order(lambda a, b: product(a, b) ** 2, leaf(shape_a, seed), leaf(shape_b, seed))
