"""Sums and means over some dimensions, and a bias's gradient (AddBackward0 summing an (n, k)
gradient back to (k,)), to the bit against PyTorch 2.13's CPU kernel (ATen's cascade_sum,
repeated by fidelity/summation.py): dim 0, the last dim, middle dims, several dims next to each
other or apart, keepdim, float32 and float64, small and large (past the 32768 elements where
PyTorch splits a sum among its threads: a partial sum is split along the kept columns only,
in whole blocks, so its order is the one thread's). Bits are compared as integers, so a -0.0
for a 0.0 is a difference.

Known difference, not in these tables: a sum of a WHOLE tensor of more than 32768 elements,
which PyTorch splits among its threads (its bits depend on their number), keeps numpy's order;
so do integer sums (exact anyway) and non-contiguous arrays other than a matrix's transpose or
a matrix's columns sliced out of a wider one (steps between a row's elements, views of 3 or
more dimensions)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from harness.parity import WithArrays, assert_same_as_torch


def _bits(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    return array.view({4: np.uint32, 8: np.uint64}[array.dtype.itemsize])


def _values(rng: np.random.Generator, shape: tuple, dtype: str) -> np.ndarray:
    """Values of many magnitudes (so the order shows in the last bits), some of them -0.0."""
    values = rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)
    values[rng.random(shape) < 0.05] = -0.0
    return values.astype(dtype)


# (shape, dims): dim 0 of (n, k) for k below, at and past a vector's 8 and a block's 32; the
# last dim; middle dims; dimensions apart; past 32768 elements.
SHAPES = [((100, 16), (0,)), ((100, 1), (0,)), ((7, 3), (0,)), ((300, 5), (0,)),
          ((2000, 8), (0,)), ((257, 33), (0,)), ((1000, 64), (0,)), ((4096, 100), (0,)),
          ((16, 100), (1,)), ((5, 7), (1,)), ((3, 1000), (-1,)), ((2000, 30), (1,)),
          ((4, 9, 17), (1,)), ((5, 40, 3), (1,)), ((6, 5, 9), (0, 1)), ((6, 5, 9), (1, 2)),
          ((6, 5, 9), (0, 2)), ((3, 4, 5, 6), (0, 2)), ((3, 4, 5, 6), (1, 3)),
          ((2, 1, 9, 1, 17), (0, 2, 4)), ((64, 1, 70), (0,)), ((1, 50), (1,))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, dims", SHAPES)
def test_sum_and_mean_over_dims_to_the_bit(torch: Any, shape: tuple, dims: tuple,
                                           dtype: str) -> None:
    seed = [len(shape), *shape, *(d % len(shape) for d in dims)]
    data = _values(np.random.default_rng(seed), shape, dtype)

    def case(lib: Any) -> WithArrays:
        x = lib.tensor(data)
        sums = [x.sum(dims), x.sum(dims, keepdim=True), x.mean(dims), x.mean(dims, True)]
        return WithArrays([s.shape for s in sums], tuple(_bits(s.numpy()) for s in sums))

    assert_same_as_torch(case, torch)


@pytest.mark.parametrize("seed", range(12))
def test_a_bias_gradient_to_the_bit(torch: Any, seed: int) -> None:
    """`z + b` backward: b.grad is the (n, k) gradient summed over its rows, as PyTorch sums."""
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 3000)), int(rng.choice([1, 2, 3, 5, 8, 16, 31, 32, 50, 100]))
    z, bias = _values(rng, (n, k), "float32"), _values(rng, (k,), "float32")
    upstream = _values(rng, (n, k), "float32")

    def case(lib: Any) -> WithArrays:
        b = lib.tensor(bias, requires_grad=True)
        (lib.tensor(z) + b).backward(lib.tensor(upstream))
        return WithArrays(b.grad.shape, (_bits(b.grad.numpy()),))

    assert_same_as_torch(case, torch)


@pytest.mark.parametrize("seed", range(6))
def test_random_matrices_summed_to_the_bit(torch: Any, seed: int) -> None:
    """Random (n, k) matrices, n from 1 to 5000 (short ones often: a training step's batch)
    and k from 1 to 300, float32 and float64, in three layouts: C-contiguous, a transpose
    (F-contiguous), and columns sliced out of a wider matrix (rows apart in memory; one such
    column is a vector with a step, which ATen sums by its scalar row_sum). Summed
    and averaged over dim 0 (keepdim too), dim 1, and whole (up to 32768 elements: a larger
    whole sum is split among PyTorch's threads, the known difference above)."""
    rng = np.random.default_rng([7, seed])
    for case_number in range(30):
        n = int(rng.integers(1, 300) if case_number % 2 else rng.integers(1, 5001))
        k = int(rng.integers(1, 301) if case_number % 3 else rng.integers(1, 40))
        k = max(1, min(k, 400_000 // n))
        dtype = ("float32", "float64")[case_number % 2]
        layout = int(rng.integers(3))  # (drawn: not tied to the row and column ranges)
        data = _values(rng, ((n, k), (k, n), (n, k + 3))[layout], dtype)

        def case(lib: Any) -> WithArrays:
            x = lib.tensor(data)
            x = (x, x.T, x[:, :k])[layout]
            sums = [x.sum(0), x.sum(0, keepdim=True), x.mean(0), x.mean(0, True),
                    x.sum(1), x.mean(1)]
            if n * k <= 32768:
                sums += [x.sum(), x.mean()]
            return WithArrays([s.shape for s in sums], tuple(_bits(s.numpy()) for s in sums))

        assert_same_as_torch(case, torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_short_matrices_over_rows_to_the_bit(torch: Any, dtype: str) -> None:
    """Every row count where the order of a short sum over rows changes (under 4 rows, under
    16, whole blocks of 16 and past them, up to 256 and past it, and 4 times those where ATen
    takes the rows 4 at a time), against column counts around a vector's and a block's width;
    some columns all -0.0 (PyTorch's sum is then +0.0)."""
    rng = np.random.default_rng([11, len(dtype)])
    matrices = []
    for n in [*range(1, 40), 63, 64, 65, 100, 127, 128, 129, 200, 255, 256, 257, 511, 512, 513,
              1000, 1023, 1024, 1025]:
        for k in [2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 36, 40, 63, 64, 65, 100]:
            values = _values(rng, (n, k), dtype)
            values[:, rng.random(k) < 0.1] = -0.0
            matrices.append(values)

    def case(lib: Any) -> WithArrays:
        sums = [lib.tensor(m).sum(0) for m in matrices]
        return WithArrays(len(sums), tuple(_bits(s.numpy()) for s in sums))

    assert_same_as_torch(case, torch)
