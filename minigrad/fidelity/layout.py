"""The memory layout of `clone()`'s copy, as PyTorch chooses it: `copy_like_torch`.

`clone()` keeps its input's layout (memory_format=torch.preserve_format): the copy is dense, but
its dimensions lie in memory in the order of the input's strides, so the clone of a transposed
matrix is transposed too. The values are the same whatever the layout; it decides what
`is_contiguous()` answers, whether `view` works on the copy, and whether a sum of it runs in
PyTorch's order (summation.py)."""
from __future__ import annotations

import numpy as np


def copy_like_torch(data: np.ndarray) -> np.ndarray:
    """A dense copy of `data` laid out as PyTorch's `clone()` lays it out."""
    if data.ndim < 2 or data.flags.c_contiguous:
        return data.copy()
    outer_first = _layout_order(data)[::-1]
    out = np.empty([data.shape[d] for d in outer_first], data.dtype)
    out = out.transpose(np.argsort(outer_first))  # the input's dimensions, dense strides
    out[...] = data
    return out


def _layout_order(data: np.ndarray) -> list[int]:
    """The dimensions from innermost to outermost, ordered as PyTorch's infer_dense_strides
    orders them (TensorIterator's stable insertion sort): by stride, ties by size, and a
    dimension with stride 0 (a broadcast) stays where it is."""
    strides, sizes = data.strides, data.shape
    if min(strides) < 0:  # PyTorch has no negative strides: such values come from a copy
        return list(range(data.ndim))[::-1]

    def should_swap(d0: int, d1: int) -> int:
        if strides[d0] == 0 or strides[d1] == 0:
            return 0
        if strides[d0] != strides[d1]:
            return 1 if strides[d0] > strides[d1] else -1
        return 1 if sizes[d0] > sizes[d1] else 0

    perm = list(range(data.ndim))[::-1]
    for i in range(1, data.ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[d0], perm[d1])
            if comparison > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif comparison < 0:
                break
    return perm
