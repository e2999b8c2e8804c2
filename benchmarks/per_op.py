"""Where the time of workload (c) goes: microseconds per chained `y * c`, forward and backward
apart, for minigrad (with the garbage collector on, as users run it, and off, to show its
share) and PyTorch, side by side in interleaved rounds.

Usage: `python benchmarks/per_op.py [--length N] [--repeats R]`."""
from __future__ import annotations

import argparse
import gc
import statistics
import time
from types import ModuleType

from chain import FACTOR
from libraries import optional


def forward_backward_us(lib: ModuleType, length: int, collect: bool) -> tuple[float, float]:
    """(forward, backward) microseconds per operation of one chain."""
    if not collect:
        gc.disable()
    try:
        x = lib.tensor(1.0, requires_grad=True)
        y = x
        start = time.perf_counter()
        for _ in range(length):
            y = y * FACTOR
        middle = time.perf_counter()
        y.backward()
        end = time.perf_counter()
    finally:
        gc.enable()
    return (middle - start) / length * 1e6, (end - middle) / length * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    contenders = {"minigrad": (optional("minigrad"), True),
                  "minigrad, gc off": (optional("minigrad"), False),
                  "torch": (optional("torch"), True)}
    contenders = {name: c for name, c in contenders.items() if c[0] is not None}
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
    for _ in range(args.repeats):
        for name, (lib, collect) in contenders.items():
            gc.collect()
            samples[name].append(forward_backward_us(lib, args.length, collect))
    print(f"| {args.length:,} chained `*` | forward µs/op | backward µs/op | total |")
    print("| --- | --- | --- | --- |")
    for name, values in samples.items():
        forward = statistics.median(f for f, _ in values)
        backward = statistics.median(b for _, b in values)
        print(f"| {name} | {forward:.2f} | {backward:.2f} | {forward + backward:.2f} |")


if __name__ == "__main__":
    main()
