"""Is a speed trick worth its lines? Time two copies of minigrad side by side: the same
workloads, in alternating fresh processes (A, B, A, B, ...), so that a noisy neighbour slows
both alike; medians per copy, and B's gain over A in percent. Times are the process's CPU time
with one BLAS thread: on a shared machine, time spent waiting for a core is not counted.

Usage: `python benchmarks/ab.py TREE_A TREE_B [--rounds N] [--only alcfnm]`, where a tree is a
checkout (a directory holding `minigrad/`). Workloads: a = 2-16-16-1 MLP step, l = the same
step as the lessons write it (mlp.lesson_step), b = 784-256-10 MLP step, c = 100,000-op chain
forward + backward, f = its forward alone, n = the chain with numbers first (y = 1 - c * y),
m = peak memory and objects tracked by the garbage collector per op of a 1,000,000-op chain.

To measure a trick: copy the checkout, take the trick out of the copy, and run
`python benchmarks/ab.py COPY .` (B is the tree with the trick: a positive gain is its worth)."""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ONE_THREAD = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
UNITS = {"a": "µs", "l": "µs", "b": "µs", "c": "ms", "f": "ms", "n": "ms", "m": "MiB",
         "g": "objects/op"}
TITLES = {"a": "(a) 2-16-16-1 MLP step", "l": "(a) as the lessons write it",
          "b": "(b) 784-256-10 MLP step", "c": "(c) 100k chain fwd+bwd", "f": "100k chain forward",
          "n": "(c) numbers first, 100k ops", "m": "(d) 1M chain peak RSS",
          "g": "GC-tracked objects per chain op"}


def _best_of(work, seconds: float = 0.4) -> float:
    """Median seconds per call over a few samples of about `seconds` in all."""
    work()
    start = time.process_time()
    work()
    once = max(time.process_time() - start, 1e-6)
    loops = max(1, int(seconds / 5 / once))
    samples = []
    for _ in range(5):
        gc.collect()
        start = time.process_time()
        for _ in range(loops):
            work()
        samples.append((time.process_time() - start) / loops)
    return statistics.median(samples)


def _child(tree: str, only: str) -> None:
    sys.path.insert(0, str(HERE))
    import chain
    import mlp

    sys.path.insert(0, tree)  # ahead of the checkout that libraries.py put first
    for name in [m for m in sys.modules if m == "minigrad" or m.startswith("minigrad.")]:
        del sys.modules[name]
    import minigrad

    assert Path(minigrad.__file__).resolve().is_relative_to(Path(tree).resolve()), minigrad.__file__
    out = {}
    if "a" in only:
        out["a"] = _best_of(mlp.small_mlp()["minigrad"]) * 1e6
    if "l" in only:
        out["l"] = _best_of(mlp.lesson_mlp()["minigrad"]) * 1e6
    if "b" in only:
        out["b"] = _best_of(mlp.mnist_mlp()["minigrad"]) * 1e6
    if "c" in only or "f" in only:
        forward, total = [], []
        for _ in range(2):
            gc.collect()
            start = time.process_time()
            x = minigrad.tensor(1.0, requires_grad=True)
            y = x
            for _ in range(chain.LENGTH):
                y = y * chain.FACTOR
            middle = time.process_time()
            y.backward()
            end = time.process_time()
            del x, y
            forward.append((middle - start) * 1e3)
            total.append((end - start) * 1e3)
        out["c"], out["f"] = statistics.median(total), statistics.median(forward)
    if "n" in only:
        times = []
        for _ in range(2):
            gc.collect()
            start = time.process_time()
            chain.numbers_first_backward(minigrad, chain.LENGTH)
            times.append((time.process_time() - start) * 1e3)
        out["n"] = statistics.median(times)
    if "m" in only:
        gc.collect()
        before = len(gc.get_objects())
        x = minigrad.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(1000):
            y = y * chain.FACTOR
        out["g"] = (len(gc.get_objects()) - before) / 1000
        del x, y
        done = subprocess.run([sys.executable, __file__, "--memory", tree],
                              capture_output=True, text=True, check=True)
        out["m"] = float(done.stdout)
    print(json.dumps(out))


def _memory(tree: str) -> None:
    """Peak RSS in MiB of a fresh process running the 1,000,000-op chain of `tree`'s minigrad."""
    sys.path.insert(0, str(HERE))
    import chain
    import memory

    sys.path.insert(0, tree)
    for name in [m for m in sys.modules if m == "minigrad" or m.startswith("minigrad.")]:
        del sys.modules[name]
    import minigrad

    chain.chain_backward(minigrad, 1_000_000)
    print(memory._peak_kib() / 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="alcfn")
    args = parser.parse_args()
    samples: dict[str, dict[str, list[float]]] = {tree: {} for tree in args.trees}
    for round_nr in range(args.rounds):
        order = args.trees if round_nr % 2 == 0 else args.trees[::-1]
        for tree in order:
            done = subprocess.run([sys.executable, __file__, "--child", tree, args.only],
                                  capture_output=True, text=True, check=True, env=ONE_THREAD)
            for key, value in json.loads(done.stdout).items():
                samples[tree].setdefault(key, []).append(value)
    a, b = args.trees
    print(f"A = {a}\nB = {b}\n{args.rounds} alternating rounds, medians\n")
    print("| workload | A | B | B's gain |\n| --- | --- | --- | --- |")
    for key in samples[a]:
        ma, mb = statistics.median(samples[a][key]), statistics.median(samples[b][key])
        spread = max(samples[b][key]) / min(samples[b][key]) - 1
        print(f"| {TITLES[key]} | {ma:.4g} {UNITS[key]} | {mb:.4g} {UNITS[key]} | "
              f"{(ma - mb) / ma * 100:+.1f}% (B's spread {spread * 100:.0f}%) |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 1 and sys.argv[1] == "--memory":
        _memory(sys.argv[2])
    else:
        main()
