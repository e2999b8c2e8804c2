"""The cost of single lines that speed tricks replaced, each timed against the plain way it
replaced, interleaved (medians of CPU time): how many µs per op a trick can save at most.
Usage: `python benchmarks/tricks_micro.py`. Compare with the µs per op of workload (c)
(`python benchmarks/per_op.py`): a trick earns its place at 5% of that."""
from __future__ import annotations

import heapq
import statistics
import time
import timeit
from collections.abc import Callable

import numpy as np
from libraries import optional  # noqa: F401 - puts this checkout first on sys.path

import minigrad as mg
from minigrad.autograd.function import _shared
from minigrad.ops.pointwise import Mul

HEAP: list = []
POP, PUSH = heapq.heappop, heapq.heappush
TABLE = tuple(tuple(range(n)) for n in range(8))
ARGS = (mg.tensor(1.0), 2.0)


def heap_push_pop() -> None:
    heapq.heappush(HEAP, (1.0, 1, None))
    heapq.heappop(HEAP)


def aliased_push_pop() -> None:
    PUSH(HEAP, (1.0, 1, None))
    POP(HEAP)


def following() -> None:  # the node that became ready alone ran next, without the heap
    waiting = 1
    node, waiting = waiting, None


def with_init() -> None:
    Mul._backward_cls()


def without_init() -> None:
    ctx = object.__new__(Mul._backward_cls)
    ctx._to_save = None


def positions_listed() -> None:
    _shared(tuple([i for i, a in enumerate(ARGS) if isinstance(a, mg.Tensor)]))


def positions_table() -> None:
    TABLE[2]


def public_errstate() -> None:
    with np.errstate(all="ignore"):
        pass


def _private_errstate() -> Callable[[], None] | None:
    try:  # numpy's private API, which minigrad no longer uses: only to show what it saved
        from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
    except ImportError:
        return None
    quiet = _make_extobj(all="ignore")
    return lambda: _extobj_contextvar.reset(_extobj_contextvar.set(quiet))


def _median_us(work: Callable[[], None]) -> float:
    return min(timeit.repeat(work, number=20_000, repeat=3, timer=time.process_time)) / 20_000 * 1e6


def main() -> None:
    pairs = {"`following` instead of the heap": (following, heap_push_pop),
             "heappop/heappush aliases": (aliased_push_pop, heap_push_pop),
             "node made without __init__": (without_init, with_init),
             "position tuples for < 8 inputs": (positions_table, positions_listed),
             "private `_extobj_contextvar`": (_private_errstate(), public_errstate)}
    print("| trick | with it µs | without µs | saves µs per call |\n| --- | --- | --- | --- |")
    for name, (trick, plain) in pairs.items():
        if trick is None:
            continue
        with_it, without = [], []
        for _ in range(7):
            with_it.append(_median_us(trick))
            without.append(_median_us(plain))
        a, b = statistics.median(with_it), statistics.median(without)
        print(f"| {name} | {a:.3f} | {b:.3f} | {b - a:.3f} |")


if __name__ == "__main__":
    main()
