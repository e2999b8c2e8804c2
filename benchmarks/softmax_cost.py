"""What PyTorch's float32 bits cost softmax and log_softmax: median microseconds of the numpy
formula minigrad used before (one exp and one log per element, numpy's order) and of
fidelity/softmax.py's (SLEEF's exp and log, PyTorch's order), forward and log_softmax's
backward, and sigmoid's, side by side in interleaved rounds; and the PyTorch-bits functions
with their exps and logs run on the whole array at once rather than 8192 elements at a time
(fidelity.vector_math's `_in_chunks`, "whole µs"), to measure what the chunks earn.

Usage: `python benchmarks/softmax_cost.py [--repeats R]`. glibc's malloc hands out arrays
of 128 KiB or more from fresh pages until a large one has been freed (its mmap threshold then
rises), so the figures for large arrays depend on what the process did before: `--warm` frees
one first."""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from minigrad.fidelity import vector_math
from minigrad.fidelity.softmax import (log_softmax_backward_like_torch, log_softmax_like_torch,
                                       softmax_like_torch)


def numpy_log_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    shifted = x - x.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


def numpy_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    exps = np.exp(x - x.max(axis=dim, keepdims=True))
    return exps / exps.sum(axis=dim, keepdims=True)


def numpy_log_softmax_backward(grad: np.ndarray, out: np.ndarray, dim: int) -> np.ndarray:
    return grad - np.exp(out) * grad.sum(axis=dim, keepdims=True)


def numpy_sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def whole(function: Callable) -> Callable:
    """`function` with fidelity.vector_math's kernels run on the whole array in one go."""
    def unchunked(*args: np.ndarray) -> np.ndarray:
        chunk, vector_math._CHUNK = vector_math._CHUNK, sys.maxsize
        try:
            return function(*args)
        finally:
            vector_math._CHUNK = chunk
    return unchunked


def median_us(function: Callable, args: tuple, repeats: int) -> float:
    """Median over `repeats` timings of a loop long enough to take about a millisecond."""
    loops = max(1, int(1e-3 / max(_once(function, args), 1e-7)))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            function(*args)
        times.append((time.perf_counter() - start) / loops * 1e6)
    return statistics.median(times)


def _once(function: Callable, args: tuple) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--warm", action="store_true", help="free a 24 MB array first")
    arguments = parser.parse_args()
    repeats = arguments.repeats
    if arguments.warm:
        np.ones(3_000_000)  # freed at once: glibc's mmap threshold rises to 24 MB
    rng = np.random.default_rng(0)
    print(f"{'float32 case':<38}{'numpy µs':>10}{'PyTorch bits µs':>17}{'ratio':>7}"
          f"{'whole µs':>10}{'chunks earn':>13}")
    for shape, dim in (((32, 10), 1), ((32, 10), 0), ((64, 1000), 1), ((8, 64, 64), -1),
                       ((8, 64, 64), 1), ((1000, 1000), 1)):
        x = rng.standard_normal(shape).astype(np.float32)
        grad = rng.standard_normal(shape).astype(np.float32)
        dim = dim % x.ndim
        out = log_softmax_like_torch(x, dim)
        for name, old, new, args in (
                ("softmax", numpy_softmax, softmax_like_torch, (x, dim)),
                ("log_softmax", numpy_log_softmax, log_softmax_like_torch, (x, dim)),
                ("log_softmax backward", numpy_log_softmax_backward,
                 log_softmax_backward_like_torch, (grad, out, dim)),
                ("sigmoid", numpy_sigmoid, vector_math.sigmoid_like_torch, (x,))):
            if name == "sigmoid" and dim != x.ndim - 1:
                continue
            times = {old: [], new: [], "whole": []}
            for _ in range(3):  # interleaved rounds
                for function in times:
                    times[function].append(median_us(
                        whole(new) if function == "whole" else function, args, repeats))
            before, after, unchunked = (statistics.median(t) for t in times.values())
            label = f"{name} {shape}" + (f" dim={dim}" if name != "sigmoid" else "")
            print(f"{label:<38}{before:>10.1f}{after:>17.1f}{after / before:>7.1f}"
                  f"{unchunked:>10.1f}{(unchunked - after) / unchunked:>+13.0%}", flush=True)

if __name__ == "__main__":
    main()
