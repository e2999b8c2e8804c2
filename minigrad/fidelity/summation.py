"""Sums and means added up in the order of PyTorch's CPU kernel, so they round as PyTorch's.

Float additions round, so the order decides the last bits, and a training loop that prints a
loss with `.item()` shows them. numpy sums pairwise in blocks of 8; PyTorch (cascade_sum in
ATen's SumKernel.cpp, x86 with AVX2) reads the data as vectors of 8 floats (4 doubles), keeps 4
vector accumulators that are themselves summed in a cascade of 4 levels, adds the leftover
elements one by one, and last the 8 lanes of the vector sum; a sum over some dimensions adds
each column down the rows in cascades of its own (`_summed_in_torchs_order`). This module
repeats those steps for contiguous float32/float64 arrays (and a matrix's transpose or columns
sliced out of a wider one, `_matrix_view_summed`): every partial sum (PyTorch splits one among
threads only along the kept columns, in whole blocks, which keeps each column's
order), and whole sums of up to 32768 elements, which PyTorch sums in one thread; other sums
keep numpy's order. Rows are added in order by numpy's add.reduce over an axis that is not the
innermost in memory, where numpy adds one row after the other (`_in_order`)."""
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
    summed = _summed_in_torchs_order(data, dims)
    if summed is None:
        return np.asarray(np.add.reduce(data, axis=dims, keepdims=keepdims))  # (`data.sum`'s)
    if dims == (0,) and not keepdims:  # (a bias's gradient)
        return summed.reshape(data.shape[1:])
    return summed.reshape(_kept_shape(data.shape, dims, keepdims))


def mean_like_torch(data: np.ndarray, dims: Any = None, keepdims: bool = False) -> np.ndarray:
    """`data.mean(axis=dims, keepdims=keepdims)` in data's dtype; PyTorch divides its sum by the
    count (ATen's mean_out: `sum_out(...).div_(count)`), so a mean is `sum_like_torch` divided."""
    summed = _summed_in_torchs_order(data, dims) if data.size else None
    if summed is not None:
        count = data.dtype.type(data.size // max(1, summed.size))
        mean = np.asarray(summed / count, dtype=data.dtype)
        return mean.reshape(_kept_shape(data.shape, dims, keepdims))
    if not data.size:  # nan (or an empty result), silently, as PyTorch: numpy warns
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            return np.asarray(data.mean(axis=dims, keepdims=keepdims), dtype=data.dtype)
    return np.asarray(data.mean(axis=dims, keepdims=keepdims), dtype=data.dtype)


def _kept_shape(shape: tuple, dims: Any, keepdims: bool) -> tuple:
    """The shape of `shape` summed over `dims` (None: all)."""
    if dims is None:
        return (1,) * len(shape) if keepdims else ()
    summed = {d % len(shape) for d in dims} if shape else set()
    return tuple(1 if d in summed else s for d, s in enumerate(shape)
                 if keepdims or d not in summed)


def _summed_in_torchs_order(data: np.ndarray, dims: Any) -> np.ndarray | None:
    """`data` summed over `dims` (None: all) in the order of ATen's cascade_sum, flat (one
    value per output element, in order), or None where minigrad does not repeat that order:
    other than float32/float64, empty, a whole sum PyTorch splits among threads (more than
    GRAIN_SIZE elements), or not C-contiguous but for the matrices of `_matrix_view_summed`.

    PyTorch's TensorIterator drops dimensions of size 1 and merges neighbours of the same kind,
    so a contiguous tensor summed over neighbouring dimensions is (outer, summed, inner). With
    inner 1, each row is summed as a whole tensor is (`_totals`). Otherwise each column is
    summed down the rows (ATen's vectorized or scalar "outer" sum): columns in blocks of 4
    vectors (4 columns when there are fewer than a vector's) by a cascade of their own
    (`_cascade`), the rest by `_row_sum`. Summed dimensions apart: `_apart_summed`. A partial
    sum of many elements is split among threads only along the kept columns, in whole blocks,
    so its order does not depend on the threads."""
    if data.dtype not in _LANES or not data.size:
        return None
    if not data.flags.c_contiguous:
        return _matrix_view_summed(data, dims) if data.ndim == 2 else None
    if data.ndim == 2 and (dims == (0,) or dims == (1,)) and 1 not in data.shape[dims[0]:][:1]:
        # (the common sums of a matrix, a bias's gradient among them, without the steps below)
        if dims == (0,) and data.shape[0] < _ILP * _SHORT_ROWS:  # (n < GRAIN_SIZE: one thread)
            if data.shape[1] == 1:  # a column, summed as a whole tensor is (`_total`)
                return np.asarray(_total(data)).reshape(1)
            summed = _down_short_columns(data)
            if summed is not None:
                return summed
        outer, rows, inner = (1, *data.shape) if dims == (0,) else (*data.shape, 1)
    else:
        summed = set(range(data.ndim)) if dims is None else {d % data.ndim for d in dims}
        sizes = [(s, d in summed) for d, s in enumerate(data.shape) if s != 1]
        kinds = [is_summed for _, is_summed in sizes]
        if True not in kinds and len(summed) < data.ndim:  # nothing summed but ones, if any:
            return None if not summed else (data + data.dtype.type(0)).reshape(-1)  # (0 + x)
        first, count = kinds.index(True) if True in kinds else 0, kinds.count(True)
        if kinds[first:first + count] != [True] * count:
            return _apart_summed(data, summed)
        outer = math.prod(s for s, _ in sizes[:first])
        rows = math.prod(s for s, _ in sizes[first:first + count])
        inner = math.prod(s for s, _ in sizes[first + count:])
    if outer * inner == 1:  # a whole tensor (but for ones)
        return np.asarray(_total(data)).reshape(1) if data.size <= GRAIN_SIZE else None
    if inner == 1:
        return _totals(data.reshape(outer, rows))
    columns = data.reshape(outer, rows, inner).transpose(1, 0, 2)  # (summed, outer, inner)
    lanes = _LANES[data.dtype]
    block = _ILP * lanes if inner >= lanes else _ILP
    cascaded = inner // block * block
    if not cascaded:
        return _row_sum(columns).reshape(-1)
    blocks = _cascade(columns[:, :, :cascaded], from_zero=True)
    if cascaded == inner:
        return blocks.reshape(-1)
    return np.concatenate((blocks, _row_sum(columns[:, :, cascaded:])), axis=1).reshape(-1)


# A cascade of fewer rows than this climbs one level at most (`_one_level`): a matrix's sum
# over fewer rows (4 times as many where ATen takes them 4 at a time), a bias's gradient at the
# sizes of a training step, is `_down_short_columns`.
_SHORT_ROWS = 256


def _down_short_columns(data: np.ndarray) -> np.ndarray | None:
    """`_summed_in_torchs_order` of an (n, k) matrix over its rows, k >= 2 and n < 1024, in as
    few numpy calls as ATen's order allows (the general steps cost 3x numpy's own sum here), or
    None where a cascade would climb a second level (columns in blocks, 256 rows or more).
    ATen's vectorized (or scalar) outer sum takes the columns in blocks of 4 vectors (4 columns
    when there are fewer than a vector's) down the rows by `_one_level`, the rest by `row_sum`:
    the rows taken 4 at a time by `_one_level`, the rows left over added to the first of the 4,
    then the other 3. Whether a numpy reduction starts from 0, as ATen's accumulators do (numpy
    2 does), or from its first row changes only the sign of a zero along the way, and the last
    addition, to 0, settles it (ATen's sums are never -0.0). Under 4 rows, or with only whole
    blocks under 16 rows, that order is numpy's own sum from 0: one call."""
    n, k = data.shape
    block = _ILP * _LANES[data.dtype] if k >= _LANES[data.dtype] else _ILP
    cascaded = k - k % block
    if cascaded and n >= _SHORT_ROWS:
        return None
    if n < _ILP or (cascaded == k and n < 1 << _SHORTEST_LEVEL_POWER):
        return np.add.reduce(data, axis=0, initial=0)
    if cascaded == k:
        return _one_level(data) + data.dtype.type(0)
    rest = data[:, cascaded:] if cascaded else data
    width, n_ilp = k - cascaded, n // _ILP
    partial = _one_level(rest[:n_ilp * _ILP].reshape(n_ilp, _ILP * width)).reshape(_ILP, width)
    if n_ilp * _ILP != n:  # the rows left over, into the first accumulator
        partial = np.concatenate((partial[:1], rest[n_ilp * _ILP:], partial[1:]))
    if width > 1:  # (numpy adds rows of 2 or more values in order)
        row_sums = np.add.reduce(partial, axis=0, initial=0)
    else:
        row_sums = _in_order(partial, initial=0)
    if not cascaded:
        return row_sums
    return np.concatenate((_one_level(data[:, :cascaded]) + data.dtype.type(0), row_sums))


def _one_level(rows: np.ndarray) -> np.ndarray:
    """`_cascade` of fewer than 256 rows of 2 or more columns (one level climbed at most), but
    for the sign of a zero (see `_down_short_columns`): the whole blocks of 16 rows each
    summed, those sums added in turn, and the rows after the last block added on their own,
    before their sum is added to the blocks'."""
    step = 1 << _SHORTEST_LEVEL_POWER
    n_blocks = rows.shape[0] // step
    if not n_blocks:
        return np.add.reduce(rows, axis=0)
    if n_blocks == 1:
        blocks = np.add.reduce(rows[:step], axis=0)
    else:
        blocks = np.add.reduce(np.add.reduce(
            rows[:n_blocks * step].reshape(n_blocks, step, rows.shape[1]), axis=1), axis=0)
    if n_blocks * step == rows.shape[0]:
        return blocks
    return np.add.reduce(rows[n_blocks * step:], axis=0) + blocks


def _matrix_view_summed(data: np.ndarray, dims: Any) -> np.ndarray | None:
    """`_summed_in_torchs_order` of a matrix that is not C-contiguous, where PyTorch's order is
    that of a contiguous matrix: a transpose (TensorIterator walks memory in order, so the sum
    is the contiguous one's over the other dimension, or over both), or rows that are apart
    (columns sliced: ATen reads only the strides, so a sum over one dimension is the copy's; a
    whole sum adds the rows' totals into 0 one by one, as `_apart_summed` does), or a column
    whose values are apart (a vector with a step: ATen's scalar `row_sum`). Other layouts
    (steps between a row's elements, negative strides) keep numpy's order."""
    item = data.dtype.itemsize
    if data.shape[1] == 1 and data.strides[0] > 0:  # a column with its values apart: a vector
        if dims is not None and {d % 2 for d in dims} == {1}:  # (nothing summed but a 1)
            return (data + data.dtype.type(0)).reshape(-1)
        return _row_sum(data) if data.shape[0] <= GRAIN_SIZE else None  # (ATen's scalar sum)
    if data.flags.f_contiguous:
        swapped = None if dims is None else tuple(1 - d % 2 for d in dims)
        return _summed_in_torchs_order(data.T, swapped)
    if data.strides[1] != item or data.strides[0] < data.shape[1] * item or 1 in data.shape:
        return None
    if dims is not None and len({d % 2 for d in dims}) == 1:
        return _summed_in_torchs_order(np.ascontiguousarray(data), dims)
    return _added_from_zero((_totals(data)[:, None],)) if data.size <= GRAIN_SIZE else None


def _apart_summed(data: np.ndarray, summed: set) -> np.ndarray:
    """`data` summed over dimensions that are not all next to each other: PyTorch sums each row
    of the last run of summed dimensions (as `_totals` where that run is the last dimension,
    else by `_row_sum`), and adds those rows' sums to the output one by one, from 0, in the
    order of the other summed dimensions."""
    last = max(d for d in summed if data.shape[d] != 1)
    run = [last]  # (with the ones between, which PyTorch drops)
    while run[-1] and (run[-1] - 1 in summed or data.shape[run[-1] - 1] == 1):
        run.append(run[-1] - 1)
    others = [d for d in sorted(summed) if d not in run]
    kept = [d for d in range(data.ndim) if d not in summed and d not in run]
    row = math.prod(data.shape[d] for d in run)
    rows = data.transpose(kept + others + sorted(run)).reshape(-1, row)
    innermost = all(s == 1 for s in data.shape[last + 1:])
    totals = _totals(rows) if innermost else _row_sum(rows.T)
    return _added_from_zero((totals.reshape(-1, math.prod(data.shape[d] for d in others)).T,))


def _cascade(values: np.ndarray, from_zero: bool = False) -> np.ndarray:
    """values: (size, ...) summed over the first axis, each column in the order of ATen's
    multi_row_sum: rows added one by one into level 0, whose sum goes up a level every
    2**power rows, level j's up every 2**(power*(j+1)) rows; the levels added into level 0 last.
    By levels: the sums of each level's whole steps at once, then what each level holds. Only
    a sum that starts from 0 is never -0.0 (`from_zero`, for a result; a sum added on to
    others needs not: the sign of a zero shows in no sum but zero)."""
    size = values.shape[0]
    step = 1 << max(4, (size - 1).bit_length() // _LEVELS if size else 0)
    if size < step and not from_zero:  # (the rows of a bias's gradient up to 63)
        return _in_order(values)
    level, held = values, []
    for _ in range(_LEVELS - 1):
        whole = level.shape[0] - level.shape[0] % step
        held.append(level[whole:])
        if not whole:
            break
        level = _in_order(level[:whole].reshape(whole // step, step, *level.shape[1:]), 1)
    else:
        held.append(level)
    total = _in_order(held[0], initial=0 if from_zero else None)
    for sums in held[1:]:  # each level's sum added into level 0's, in turn
        if len(sums):
            total = total + (_in_order(sums) if len(sums) > 1 else sums[0])
    return total


def _in_order(values: np.ndarray, axis: int = 0, initial: Any = None) -> Any:
    """values summed over `axis` one row after the other; `initial=0`: added to 0, as PyTorch's
    accumulators are (so never -0.0), else from the first row. numpy's add.reduce adds so over
    an axis that is not the innermost in memory (it sums pairwise only along the innermost): a
    C-contiguous array with 2 or more values after `axis`, which a copy makes it. With one value
    per row, add.accumulate (4 times dearer), whose last sum plus 0 is the sum from 0: the two
    differ only in the sign of a zero along the way, which the last addition to +0 settles."""
    if not values.shape[axis]:
        return np.zeros(values.shape[:axis] + values.shape[axis + 1:], values.dtype)
    if math.prod(values.shape[axis + 1:]) < 2:
        total = np.add.accumulate(values, axis=axis).take(-1, axis=axis)
        return total if initial is None else total + values.dtype.type(initial)
    if initial is None:  # (numpy's `initial=None` would refuse an empty axis)
        return np.add.reduce(np.ascontiguousarray(values), axis=axis)
    return np.add.reduce(np.ascontiguousarray(values), axis=axis, initial=initial)


def _added_from_zero(parts: tuple) -> np.ndarray:
    """The rows of `parts`, (m, ...) arrays, added one after the other to 0 (a sum that starts
    from 0 is never -0.0, as PyTorch's accumulators are not)."""
    return _in_order(np.concatenate(parts), initial=0)


def _row_sum(values: np.ndarray) -> np.ndarray:
    """values: (n, ...) summed over the first axis as ATen's row_sum: the rows in 4 interleaved
    accumulators (`_cascade` of the rows taken 4 at a time), the rows left over added into the
    first, then the other 3."""
    n_ilp = values.shape[0] // _ILP
    if n_ilp:
        partial = _cascade(values[:n_ilp * _ILP].reshape(n_ilp, _ILP, *values.shape[1:]))
    else:
        partial = np.zeros((_ILP, *values.shape[1:]), dtype=values.dtype)
    if n_ilp * _ILP == values.shape[0]:  # nothing left over (a batch of a multiple of 4)
        return _in_order(partial, initial=0)
    return _added_from_zero((partial[:1], values[n_ilp * _ILP:], partial[1:]))


def _totals(rows: np.ndarray) -> np.ndarray:
    """rows: (m, n), each row summed as ATen's vectorized_inner_sum sums it (as `_total` sums a
    whole tensor): vectors of 8 float32 (4 float64) by `_row_sum`, then from 0 the elements
    left over and the lanes; a row shorter than a vector by the scalar `_row_sum`."""
    lanes = _LANES[rows.dtype]
    m, n = rows.shape
    if n < lanes:
        return _row_sum(rows.T)
    n_vectors = n // lanes
    vectors = rows[:, :n_vectors * lanes].reshape(m, n_vectors, lanes).transpose(1, 0, 2)
    return _added_from_zero((rows[:, n_vectors * lanes:].T, _row_sum(vectors).T))


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
    is a plain running sum, done by `_in_order` twice and `add.accumulate` once (each adds in
    order, one row after the other) instead of a Python loop per row. The same additions in the
    same order: the rows of 4 vectors, then the vectors left over and the other 3
    accumulators into the first, then the elements left over and the 8 lanes into 0. (The
    running sums start from their first row, not from 0: that changes only the sign of a zero
    along the way, which the last sum, from 0, cannot show.) What it earns:
    benchmarks/tricks.md, row `_short_total`."""
    n_vectors = flat.size // lanes
    n_rows = n_vectors // _ILP
    vectors = flat[:n_vectors * lanes].reshape(n_vectors, lanes)
    if n_rows:  # (rows of 4 vectors side by side: numpy's add.reduce adds such rows in order)
        partial = np.add.reduce(vectors[:n_rows * _ILP].reshape(n_rows, _ILP * lanes), axis=0)
        partial = partial.reshape(_ILP, lanes)
    else:
        partial = np.zeros((_ILP, lanes), dtype=flat.dtype)
    if n_rows * _ILP == n_vectors:  # no vector left over
        vector_sum = np.add.reduce(partial, axis=0)
    else:
        vector_sum = np.add.reduce(
            np.concatenate((partial[:1], vectors[n_rows * _ILP:], partial[1:])), axis=0)
    last = np.concatenate((_ZERO[flat.dtype], flat[n_vectors * lanes:], vector_sum))
    return np.add.accumulate(last)[-1]


_ZERO = {dtype: np.zeros(1, dtype) for dtype in _LANES}  # (a sum from 0, `_short_total`'s last)


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
    # what each level holds at the end, from level 0 up
    held = [_in_order(rest[blocked:], initial=0)]
    items = _in_order(rest[:blocked].reshape(-1, step), 1, 0)
    for _ in range(1, _NLL_LEVELS - 1):
        if not items.shape[0]:  # the levels above hold 0
            break
        grouped = items.shape[0] // step * step
        held.append(_in_order(items[grouped:], initial=0))
        items = _in_order(items[:grouped].reshape(-1, step), 1, 0)
    held.append(_in_order(np.concatenate((values[:1], items)), initial=0))
    return _in_order(np.array(held, dtype=values.dtype), initial=0)
