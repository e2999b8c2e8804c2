"""minigrad.fidelity's promise to a learner who skips it: each of its functions returns what its
plain numpy counterpart returns (same shape, same dtype, same values but for a float's last
bits), so `fidelity.sum_like_torch(x)` can be read as `x.sum()`. That PyTorch's last bits are
the ones it gives is checked against PyTorch elsewhere (test_programs.py)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minigrad import fidelity
from minigrad.fidelity import ranges, vector_math

DTYPES = st.sampled_from([np.float32, np.float64, np.int64])


@st.composite
def arrays_and_dims(draw: st.DrawFn) -> tuple[np.ndarray, tuple[int, ...] | None]:
    """An array, transposed half of the time (not contiguous: numpy's order), and the dims to
    reduce: all of them (PyTorch's order where it applies), some, or None."""
    dtype = draw(DTYPES)
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=40))
    elements = (st.integers(-1000, 1000) if dtype is np.int64
                else st.floats(-1e3, 1e3, width=np.dtype(dtype).itemsize * 8))
    data = draw(hnp.arrays(dtype, shape, elements=elements))
    if data.ndim >= 2 and draw(st.booleans()):
        data = data.T
    dims = draw(st.one_of(st.none(), st.just(tuple(range(data.ndim))),
                          st.sets(st.integers(0, max(data.ndim - 1, 0)), max_size=data.ndim)
                          .map(lambda s: tuple(sorted(s)))))
    return data, dims


def _close(got: np.ndarray, expected: np.ndarray, magnitude: np.ndarray, terms: int) -> None:
    """Same shape and dtype, and values no further apart than rounding can put two orders of
    adding `terms` numbers: each is within (terms - 1) half-units of the last place of
    `magnitude` (the sum of the |terms|) of the exact sum, whatever its order."""
    assert got.shape == expected.shape and got.dtype == expected.dtype
    if got.dtype.kind == "i":
        assert np.array_equal(got, expected)
        return
    bound = max(terms, 2) * np.finfo(got.dtype).eps * magnitude
    assert np.all(np.abs(got - expected) <= bound), (got, expected)


def _terms(data: np.ndarray, dims: tuple[int, ...] | None) -> int:
    return int(np.prod([data.shape[d] for d in (range(data.ndim) if dims is None else dims)]))


@given(arrays_and_dims(), st.booleans())
def test_sum_like_torch_is_numpys_sum_but_for_the_last_bits(case, keepdims: bool) -> None:
    data, dims = case
    _close(fidelity.sum_like_torch(data, dims, keepdims),
           np.asarray(data.sum(axis=dims, keepdims=keepdims)),
           np.abs(data).sum(axis=dims, keepdims=keepdims), _terms(data, dims))


@given(arrays_and_dims(), st.booleans())
def test_mean_like_torch_is_numpys_mean_but_for_the_last_bits(case, keepdims: bool) -> None:
    data, dims = case
    data = data.astype(np.float64) if data.dtype.kind == "i" else data  # mean is of floats
    assume(data.size)  # numpy's mean of nothing is nan, with a warning
    _close(fidelity.mean_like_torch(data, dims, keepdims),
           np.asarray(data.mean(axis=dims, keepdims=keepdims), dtype=data.dtype),
           np.abs(data).mean(axis=dims, keepdims=keepdims), _terms(data, dims))


@given(arrays_and_dims())
def test_copy_like_torch_is_a_copy(case) -> None:
    data, _ = case
    copy = fidelity.copy_like_torch(data)
    assert copy.shape == data.shape and copy.dtype == data.dtype
    assert np.array_equal(copy, data) and not np.shares_memory(copy, data)


def test_a_sum_in_torchs_order_differs_from_numpys_only_in_the_last_bits() -> None:
    # The one reason fidelity/ exists: here the two orders round differently.
    data = np.random.default_rng(0).standard_normal(1000).astype(np.float32)
    ours, numpys = fidelity.sum_like_torch(data), data.sum()
    assert ours != numpys and abs(ours - numpys) < 1e-4


FLOAT_DTYPES = st.sampled_from([np.float32, np.float64])


@given(st.floats(-100, 100), st.floats(0.001, 10), st.integers(0, 3000), FLOAT_DTYPES,
       st.booleans())
def test_arange_like_torch_is_numpys_arange_but_for_the_last_bits(start: float, step: float,
                                                                 count: int, dtype: type,
                                                                 down: bool) -> None:
    step = -step if down else step
    end = start + step * count
    got = ranges.arange_like_torch(start, end, step, dtype)
    assert got.dtype == dtype and got.shape == np.arange(start, end, step).shape
    exact = start + step * np.arange(len(got), dtype=np.float64)  # to a double's rounding
    bound = (4 * np.finfo(dtype).eps * (abs(start) + np.abs(step * np.arange(len(got))))
             + np.finfo(dtype).smallest_normal)
    assert np.all(np.abs(got - exact) <= bound)


@given(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4), st.integers(0, 3000), FLOAT_DTYPES)
def test_linspace_like_torch_is_numpys_linspace_but_for_the_last_bits(start: float, end: float,
                                                                     steps: int, dtype: type
                                                                     ) -> None:
    got, expected = ranges.linspace_like_torch(start, end, steps, dtype), np.linspace(
        start, end, steps)
    assert got.dtype == dtype and got.shape == expected.shape
    bound = 4 * np.finfo(dtype).eps * (abs(start) + abs(end)) + np.finfo(dtype).smallest_normal
    assert np.all(np.abs(got - expected) <= bound)


# fma64 is exact but for underflow: magnitudes whose products stay normal
FINITE = st.one_of(st.just(0.0), st.floats(1e-60, 1e60), st.floats(-1e60, -1e-60))


@given(hnp.arrays(np.float64, 20, elements=FINITE), hnp.arrays(np.float64, 20, elements=FINITE),
       hnp.arrays(np.float64, 20, elements=FINITE))
def test_fma64_rounds_the_exact_result_once(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> None:
    c = np.where(np.arange(20) % 2 == 0, -a * b, c)  # half of them cancel almost all the product
    exact = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)]
    assert np.array_equal(ranges.fma64(a, b, c), exact)


@given(hnp.arrays(FLOAT_DTYPES, hnp.array_shapes(max_dims=2),
                  elements=st.floats(-20, 20, width=32)))
def test_vector_math_is_numpys_but_for_the_last_bit(data: np.ndarray) -> None:
    eps = np.finfo(data.dtype).eps
    for name in ("tanh", "sin", "cos", "exp", "log"):
        values = np.abs(data) + data.dtype.type(1) if name == "log" else data
        got = getattr(vector_math, f"{name}_like_torch")(values)
        assert got.dtype == data.dtype and got.shape == data.shape
        np.testing.assert_allclose(got, getattr(np, name)(values), rtol=4 * eps, atol=4 * eps)
    y = np.tanh(data)
    np.testing.assert_allclose(vector_math.tanh_backward_like_torch(data, y), data * (1 - y * y),
                               rtol=4 * np.finfo(data.dtype).eps, atol=4 * np.finfo(
                                   data.dtype).eps)


def _total_row_by_row(data: np.ndarray) -> np.generic:
    """`summation._total` by the general path alone (`_row_sum`, the cascade by levels), which
    a sum of fewer than 64 vectors skips for `_short_total`."""
    from minigrad.fidelity import summation
    flat = data.reshape(-1)
    lanes = summation._LANES[flat.dtype]
    n_vectors = flat.size // lanes
    result = flat.dtype.type(0)
    for value in flat[n_vectors * lanes:]:
        result = result + value
    for value in summation._row_sum(flat[:n_vectors * lanes].reshape(n_vectors, lanes)):
        result = result + value
    return result


@given(st.sampled_from([np.float32, np.float64]), st.integers(8, 600), st.integers(0, 2**32 - 1),
       st.sampled_from(["normal", "magnitudes", "special"]))
def test_short_total_adds_in_the_order_of_the_row_loop(dtype, size, seed, kind):
    """The short sum's running sums add what the general path adds, in its order: bit for bit
    the same, signed zeros, infinities and nan included."""
    from minigrad.fidelity import summation
    rng = np.random.default_rng(seed)
    if kind == "normal":
        data = rng.standard_normal(size)
    elif kind == "magnitudes":
        data = rng.standard_normal(size) * 10.0 ** rng.integers(-30, 30, size)
    else:
        data = rng.choice([0.0, -0.0, 1e30, -1e30, 1.0, -1.0, np.inf, np.nan, 1e-40, 3.0], size)
    data = data.astype(dtype)
    with np.errstate(all="ignore"):
        got, expected = summation._total(data), _total_row_by_row(data)
    assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
