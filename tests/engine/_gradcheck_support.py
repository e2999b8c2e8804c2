"""What the gradient-check tests share: hypothesis strategies for shapes, float64 leaves with
values where each op is smooth, and first- and second-order checks against finite differences."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg
from minigrad.autograd import gradcheck

moderate = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)
pairs = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3)
seeds = st.integers(0, 2**32 - 1)


def leaf(shape: tuple, seed: int, domain: str = "any") -> mg.Tensor:
    """A float64 leaf that requires grad, with values where `domain` says the op is smooth."""
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))
    if domain == "distinct":  # max/min: no ties, neighbours 0.3 apart, far beyond eps
        values = rng.permutation(size) * 0.3 - 1.0 + rng.uniform(0, 0.01)
    elif domain == "positive":  # log, sqrt, fractional powers
        values = rng.uniform(0.3, 2.0, size)
    elif domain == "nonzero":  # abs, relu, 1/x: at least 0.1 from the kink or pole
        values = rng.choice([-1.0, 1.0], size) * rng.uniform(0.1, 2.0, size)
    elif domain == "off-bounds":  # clamp(-0.5, 0.5): at least 0.05 from either bound
        values = rng.uniform(-2.0, 2.0, size)
        for bound in (-0.5, 0.5):
            near = np.abs(values - bound) < 0.05
            values[near] = bound + np.where(values[near] >= bound, 0.05, -0.05)
    else:
        values = rng.uniform(-2.0, 2.0, size)
    return mg.tensor(values.reshape(shape), dtype=mg.float64, requires_grad=True)


def check(fn: Callable[..., Any], *inputs: Any) -> None:
    assert gradcheck(fn, inputs), fn


def check_second_order(fn: Callable[..., mg.Tensor], *inputs: mg.Tensor) -> None:
    """gradgradcheck: the gradient of a first gradient (built with create_graph=True) must match
    finite differences of that first gradient. A fixed random weighting of the output makes every
    output element matter."""
    weights = np.random.default_rng(0).uniform(0.5, 1.5, tuple(fn(*inputs).shape))

    def first_gradients(*xs: mg.Tensor) -> tuple:
        with mg.enable_grad():  # gradcheck evaluates under no_grad; this gradient needs a graph
            out = fn(*xs)
            return mg.autograd.grad((out * mg.tensor(weights)).sum(), xs, create_graph=True)

    assert gradcheck(first_gradients, inputs)


def dims_of(shape: tuple) -> st.SearchStrategy[int]:
    """A valid `dim` for `shape`, negative ones included (a 0-d tensor accepts 0 and -1)."""
    n = max(len(shape), 1)
    return st.integers(-n, n - 1)
