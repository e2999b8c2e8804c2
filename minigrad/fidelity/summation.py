"""Sums and means added up in the order of PyTorch's CPU kernel, so they round as PyTorch's.

Float additions round, so the order decides the last bits, and a training loop that prints a
loss with `.item()` shows them. numpy sums pairwise in blocks of 8; PyTorch (cascade_sum in
ATen's SumKernel.cpp, x86 with AVX2) reads the data as vectors of 8 floats (4 doubles), keeps 4
vector accumulators that are themselves summed in a cascade of 4 levels, adds the leftover
elements one by one, and last the 8 lanes of the vector sum. This module repeats those steps.
It is used for whole contiguous float tensors of up to 32768 elements, which PyTorch sums in
one thread; other sums keep numpy's order."""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

GRAIN_SIZE = 32768  # above this PyTorch splits the sum across threads
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_ILP = 4  # accumulators side by side
_LEVELS = 4  # levels of the cascade


def sum_like_torch(data: np.ndarray, dims: Any = None, keepdims: bool = False) -> np.ndarray:
    """`data.sum(axis=dims, keepdims=keepdims)`, in PyTorch's order where minigrad repeats it."""
    if _in_torchs_order(data, dims):
        result = np.asarray(_total(data))
        return result.reshape((1,) * data.ndim) if keepdims else result
    return np.asarray(np.add.reduce(data, axis=dims, keepdims=keepdims))  # (`data.sum`'s call)


def mean_like_torch(data: np.ndarray, dims: Any = None, keepdims: bool = False) -> np.ndarray:
    """`data.mean(axis=dims, keepdims=keepdims)` in data's dtype; PyTorch divides its sum by the
    count, so the mean of a whole tensor is `sum_like_torch` divided."""
    if _in_torchs_order(data, dims) and data.size:
        mean = _total(data) / data.dtype.type(data.size)
        return np.asarray(mean, dtype=data.dtype).reshape((1,) * data.ndim if keepdims else ())
    if not data.size:  # nan (or an empty result), silently, as PyTorch: numpy warns
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            return np.asarray(data.mean(axis=dims, keepdims=keepdims), dtype=data.dtype)
    return np.asarray(data.mean(axis=dims, keepdims=keepdims), dtype=data.dtype)


def _in_torchs_order(data: np.ndarray, dims: Any) -> bool:
    """Whether `data` summed over `dims` (None: all) is a sum whose order minigrad repeats: of
    every element of a contiguous float tensor that PyTorch sums in one thread."""
    sums_everything = dims is None or (len(dims) >= data.ndim
                                       and set(dims) == set(range(data.ndim)))
    return (sums_everything and data.dtype in _LANES and data.size <= GRAIN_SIZE
            and data.flags.c_contiguous)


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """rows: (size, ILP, ...) -> ILP partial sums, cascaded as ATen's multi_row_sum."""
    size = rows.shape[0]
    level_power = max(4, (math.ceil(math.log2(size)) if size > 1 else 0) // _LEVELS)
    level_step = 1 << level_power
    level_mask = level_step - 1
    acc = np.zeros((_LEVELS, *rows.shape[1:]), dtype=rows.dtype)
    i = 0
    while i + level_step <= size:
        for _ in range(level_step):
            acc[0] += rows[i]
            i += 1
        for j in range(1, _LEVELS):
            acc[j] += acc[j - 1]
            acc[j - 1] = 0
            if i & (level_mask << (j * level_power)):
                break
    for k in range(i, size):
        acc[0] += rows[k]
    for j in range(1, _LEVELS):
        acc[0] += acc[j]
    return acc[0]


def _row_sum(values: np.ndarray) -> np.ndarray:
    """values: (n, ...) summed over the first axis with 4 accumulators (ATen's row_sum)."""
    n = values.shape[0]
    n_ilp = n // _ILP
    if n_ilp:
        partial = _multi_row_sum(values[:n_ilp * _ILP].reshape(n_ilp, _ILP, *values.shape[1:]))
    else:
        partial = np.zeros((_ILP, *values.shape[1:]), dtype=values.dtype)
    for k in range(n_ilp * _ILP, n):
        partial[0] += values[k]
    for k in range(1, _ILP):
        partial[0] += partial[k]
    return partial[0]


def _total(data: np.ndarray) -> np.generic:
    """The sum of all of `data` (see `_in_torchs_order`), rounded as PyTorch rounds it."""
    flat = data.reshape(-1)
    lanes = _LANES[flat.dtype]
    if flat.size < lanes:  # too short for vectors: the scalar row_sum
        return _row_sum(flat.reshape(-1, 1))[0] if flat.size else flat.dtype.type(0)
    n_vectors = flat.size // lanes
    if n_vectors < _ILP << _SHORTEST_LEVEL_POWER:  # up to 511 floats: a loss's mean, say
        return _short_total(flat, lanes)
    vector_sum = _row_sum(flat[:n_vectors * lanes].reshape(n_vectors, lanes))
    result = flat.dtype.type(0)
    for value in flat[n_vectors * lanes:]:
        result = result + value
    for value in vector_sum:
        result = result + value
    return result


# The cascade's levels are at least 2**4 rows apart (`_multi_row_sum`'s level_power): a sum of
# fewer than 16 rows of _ILP vectors never climbs a level.
_SHORTEST_LEVEL_POWER = 4


def _short_total(flat: np.ndarray, lanes: int) -> np.generic:
    """`_total` of fewer than 64 vectors, where the cascade has one level and every step above
    is a plain running sum, done by numpy's `add.accumulate` (which adds in order, one row
    after the other) in 3 calls instead of a Python loop per row. The same additions in the
    same order: the rows of 4 vectors, then the vectors left over and the other 3
    accumulators into the first, then the elements left over and the 8 lanes into 0. (The
    running sums start from their first row, not from 0: that changes only the sign of a zero
    along the way, which the last sum, from 0, cannot show.) What it earns:
    benchmarks/tricks.md, row `_short_total`."""
    n_vectors = flat.size // lanes
    n_rows = n_vectors // _ILP
    vectors = flat[:n_vectors * lanes].reshape(n_vectors, lanes)
    if n_rows:
        rows = vectors[:n_rows * _ILP].reshape(n_rows, _ILP, lanes)
        partial = np.add.accumulate(rows, axis=0)[-1]
    else:
        partial = np.zeros((_ILP, lanes), dtype=flat.dtype)
    vector_sum = np.add.accumulate(
        np.concatenate((partial[:1], vectors[n_rows * _ILP:], partial[1:])), axis=0)[-1]
    last = np.concatenate((np.zeros(1, dtype=flat.dtype), flat[n_vectors * lanes:], vector_sum))
    return np.add.accumulate(last)[-1]


_NLL_LEVELS = 8  # nll_loss's cascade (ATen's LossNLL.cpp, cascade_sum_num_levels)


def nll_sum_like_torch(values: np.ndarray, kept: np.ndarray) -> np.generic:
    """The sum of `values[kept]` (one per sample) in the order of nll_loss's CPU kernel, which
    sums its batch in a cascade of its own: a running sum that, after each kept sample whose
    index is a multiple of 2**power, is added a level up (and on up while the index is a
    multiple of the next level's step too), the levels added last from 0. The running sums
    between those samples are numpy's `add.accumulate`, which adds in order."""
    dtype = values.dtype.type
    n = values.shape[0]
    power = max(4, (math.ceil(math.log2(n)) if n > 1 else 0) // _NLL_LEVELS)
    if n and kept.all():
        return _nll_cascade_of_all(values, 1 << power)
    mask = (1 << power) - 1
    acc = [dtype(0)] * _NLL_LEVELS
    start = 0
    for b in range(0, n, 1 << power):  # the samples where the cascade may climb
        segment = values[start:b + 1][kept[start:b + 1]]
        acc[0] = np.add.accumulate(np.concatenate(([acc[0]], segment)))[-1]
        start = b + 1
        j = 0
        while kept[b] and j + 1 < _NLL_LEVELS and not b & (mask << (j * power)):
            acc[j + 1], acc[j] = acc[j + 1] + acc[j], dtype(0)
            j += 1
    segment = values[start:][kept[start:]]
    acc[0] = np.add.accumulate(np.concatenate(([acc[0]], segment)))[-1]
    return np.add.accumulate(np.array([dtype(0), *acc], dtype=values.dtype))[-1]


def _nll_cascade_of_all(values: np.ndarray, step: int) -> np.generic:
    """`nll_sum_like_torch` when no sample is ignored, in a few numpy calls: sample 0 climbs at
    once to the top level (its index is a multiple of every step); the others fill level 0 in
    blocks of `step` (samples 1..step, step+1..2·step, ...), each block added to level 1, every
    `step` of those to level 2, and so on; the top level keeps what it gets."""
    rest = values[1:]
    blocked = rest.shape[0] // step * step
    held = [_in_order(rest[blocked:])]  # what each level holds at the end, from level 0 up
    items = _in_order(rest[:blocked].reshape(-1, step), axis=1)
    for _ in range(1, _NLL_LEVELS - 1):
        if not items.shape[0]:  # the levels above hold 0
            break
        grouped = items.shape[0] // step * step
        held.append(_in_order(items[grouped:]))
        items = _in_order(items[:grouped].reshape(-1, step), axis=1)
    held.append(_in_order(np.concatenate((values[:1], items))))
    return _in_order(np.array(held, dtype=values.dtype))


def _in_order(values: np.ndarray, axis: int = 0) -> Any:
    """0 plus values, added one after the other along `axis`. (Added from the first value and
    then to 0, which is the same: the two differ only in the sign of a zero along the way, which
    the last addition to +0 makes +0 either way.)"""
    zero = values.dtype.type(0)
    if not values.shape[axis]:
        return np.zeros(values.shape[:axis] + values.shape[axis + 1:], values.dtype) + zero
    return np.add.accumulate(values, axis=axis).take(-1, axis=axis) + zero
