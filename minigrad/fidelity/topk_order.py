"""Which of several equal values topk picks, and in what order, as PyTorch's CPU kernel does.

ATen's topk (TopKImpl.h) pairs each value with its index and compares values only, so among
ties the order is whatever its C++ standard library's selection leaves: std::partial_sort of
the first k when k * 64 <= n, else std::nth_element at k - 1 and (sorted) std::sort of the
k - 1 before it. This module retraces libstdc++'s versions of those three (introselect,
introsort, heap select) step for step, comparisons and swaps in the same order, on a list of
(value, index) pairs; `comes_first` is the kernel's comparator (NaN above every number). It runs
in Python, so sorting.topk calls it only for rows where ties (or sorted=False) make the order
depend on it."""
from __future__ import annotations

import math
from typing import Any, Callable

Pair = tuple  # (value, index)


def _larger(x: Pair, y: Pair) -> bool:
    return (math.isnan(x[0]) and not math.isnan(y[0])) or x[0] > y[0]


def _smaller(x: Pair, y: Pair) -> bool:
    return (not math.isnan(x[0]) and math.isnan(y[0])) or x[0] < y[0]


def topk_positions(values: list, k: int, largest: bool, sorted_: bool) -> list:
    """The indices topk returns for one row of `values` (Python numbers)."""
    q = [(v, j) for j, v in enumerate(values)]
    comp = _larger if largest else _smaller
    if k * 64 <= len(q):
        _heap_select(q, 0, k, len(q), comp)
        _sort_heap(q, 0, k, comp)
    else:
        _introselect(q, 0, k - 1, len(q), comp)
        if sorted_:
            _sort(q, 0, k - 1, comp)
    return [j for _, j in q[:k]]


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _introselect(q: list, first: int, nth: int, last: int, comp: Callable) -> None:
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(q, first, nth + 1, last, comp)
            q[first], q[nth] = q[nth], q[first]
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(q, first, last, comp)


def _sort(q: list, first: int, last: int, comp: Callable) -> None:
    """std::sort: introsort down to runs of 16, then one insertion sort. (No recursion over a
    graph here: the recursion depth is bounded by 2 log2 n, as in the C++.)"""
    if first == last:
        return
    _introsort_loop(q, first, last, _lg(last - first) * 2, comp)
    if last - first > 16:
        _insertion_sort(q, first, first + 16, comp)
        for i in range(first + 16, last):
            _linear_insert(q, i, comp)
    else:
        _insertion_sort(q, first, last, comp)


def _introsort_loop(q: list, first: int, last: int, depth: int, comp: Callable) -> None:
    while last - first > 16:
        if depth == 0:
            _heap_select(q, first, last, last, comp)
            _sort_heap(q, first, last, comp)
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, comp)
        _introsort_loop(q, cut, last, depth, comp)
        last = cut


def _partition_pivot(q: list, first: int, last: int, comp: Callable) -> int:
    mid = first + (last - first) // 2
    a, b, c = first + 1, mid, last - 1
    if comp(q[a], q[b]):
        pick = b if comp(q[b], q[c]) else (c if comp(q[a], q[c]) else a)
    else:
        pick = a if comp(q[a], q[c]) else (c if comp(q[b], q[c]) else b)
    q[first], q[pick] = q[pick], q[first]
    # unguarded partition of [first + 1, last) around q[first]
    lo, hi, pivot = first + 1, last, q[first]
    while True:
        while comp(q[lo], pivot):
            lo += 1
        hi -= 1
        while comp(pivot, q[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        q[lo], q[hi] = q[hi], q[lo]
        lo += 1


def _insertion_sort(q: list, first: int, last: int, comp: Callable) -> None:
    for i in range(first + 1, last):
        if comp(q[i], q[first]):  # to the front: the rest moves up by one
            value = q[i]
            q[first + 1:i + 1] = q[first:i]
            q[first] = value
        else:
            _linear_insert(q, i, comp)


def _linear_insert(q: list, last: int, comp: Callable) -> None:
    value = q[last]
    nxt = last - 1
    while comp(value, q[nxt]):
        q[last] = q[nxt]
        last, nxt = nxt, nxt - 1
    q[last] = value


def _heap_select(q: list, first: int, middle: int, last: int, comp: Callable) -> None:
    _make_heap(q, first, middle, comp)
    for i in range(middle, last):
        if comp(q[i], q[first]):
            _pop_heap(q, first, middle, i, comp)


def _sort_heap(q: list, first: int, last: int, comp: Callable) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(q, first, last, last, comp)


def _make_heap(q: list, first: int, last: int, comp: Callable) -> None:
    n = last - first
    if n < 2:
        return
    for parent in range((n - 2) // 2, -1, -1):
        _adjust_heap(q, first, parent, n, q[first + parent], comp)


def _pop_heap(q: list, first: int, last: int, result: int, comp: Callable) -> None:
    value = q[result]
    q[result] = q[first]
    _adjust_heap(q, first, 0, last - first, value, comp)


def _adjust_heap(q: list, first: int, hole: int, n: int, value: Any, comp: Callable) -> None:
    top, child = hole, hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if comp(q[first + child], q[first + child - 1]):
            child -= 1
        q[first + hole] = q[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        q[first + hole] = q[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and comp(q[first + parent], value):
        q[first + hole] = q[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    q[first + hole] = value
