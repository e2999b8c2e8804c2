"""What PyTorch's float32 bits cost softmax and log_softmax: median microseconds of the numpy
formula minigrad used before (one exp and one log per element, numpy's order) and of
fidelity/softmax.py's (SLEEF's exp and log, PyTorch's order), forward and log_softmax's
backward, side by side in interleaved rounds.

Usage: `python benchmarks/softmax_cost.py [--repeats R]`."""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

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
    repeats = parser.parse_args().repeats
    rng = np.random.default_rng(0)
    print(f"{'float32 case':<34}{'numpy µs':>10}{'PyTorch bits µs':>17}{'ratio':>7}")
    for shape, dim in (((32, 10), 1), ((32, 10), 0), ((64, 1000), 1), ((8, 64, 64), -1)):
        x = rng.standard_normal(shape).astype(np.float32)
        grad = rng.standard_normal(shape).astype(np.float32)
        dim = dim % x.ndim
        out = log_softmax_like_torch(x, dim)
        for name, old, new, args in (
                ("softmax", numpy_softmax, softmax_like_torch, (x, dim)),
                ("log_softmax", numpy_log_softmax, log_softmax_like_torch, (x, dim)),
                ("log_softmax backward", numpy_log_softmax_backward,
                 log_softmax_backward_like_torch, (grad, out, dim))):
            befores, afters = [], []
            for _ in range(3):  # interleaved rounds
                befores.append(median_us(old, args, repeats))
                afters.append(median_us(new, args, repeats))
            before, after = statistics.median(befores), statistics.median(afters)
            label = f"{name} {shape} dim={dim}"
            print(f"{label:<34}{before:>10.1f}{after:>17.1f}{after / before:>7.1f}")


if __name__ == "__main__":
    main()
