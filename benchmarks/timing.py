"""Side-by-side timing: every contender runs in the same rounds, one after the other, so a
noisy neighbour slows them all alike; the median of the rounds is what gets reported."""
from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable


def _seconds(work: Callable[[], object], loops: int,
             clock: Callable[[], float] = time.perf_counter) -> float:
    gc.collect()  # garbage left by the previous contender is not this one's cost
    start = clock()
    for _ in range(loops):
        work()
    return (clock() - start) / loops


def interleaved_rounds(contenders: dict[str, Callable[[], object]], repeats: int,
                       min_sample: float = 0.05,
                       clock: Callable[[], float] = time.perf_counter) -> dict[str, list[float]]:
    """Seconds per call of each contender in each of `repeats` interleaved rounds, timed
    with `clock`: wall time by default; `time.process_time` counts only the CPU time of this
    process, so that on a shared machine the time spent waiting for a core is left out.
    Round i of every contender ran at about the same time: their ratio is a fair one.

    A first call per contender warms it up, a second sizes its sample: fast work is looped
    until a sample lasts about `min_sample` seconds, so the timer's resolution does not
    matter. (Sized from the first, cold call, PyTorch's 140 µs step got samples of 5 ms, short
    enough that one wait for a core on a loaded machine doubled them.)"""
    # Everything alive now (each library's modules, the contenders' inputs) is frozen out of
    # the garbage collector while timing: a collection during minigrad's chain would otherwise
    # walk torch's 170,000 objects too (about 3 µs of each 11 µs forward op with torch
    # imported), a cost no program that uses only one of the libraries pays. Each contender's
    # own objects are still collected as usual.
    gc.collect()
    gc.freeze()
    try:
        loops = {}
        for name, work in contenders.items():
            work()
            once = _seconds(work, 1, clock)
            loops[name] = max(1, math.ceil(min_sample / max(once, 1e-9)))
        samples: dict[str, list[float]] = {name: [] for name in contenders}
        names = list(contenders)
        for round_nr in range(repeats):
            # rotate who goes first: no one always runs on a cold cache
            shift = round_nr % len(names)
            for name in names[shift:] + names[:shift]:
                samples[name].append(_seconds(contenders[name], loops[name], clock))
    finally:
        gc.unfreeze()
    return samples


def format_seconds(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"
