"""Is a change worth it? Two copies of minigrad in one process, timed in alternating short
rounds (A then B, then B then A, ...): each pair of neighbouring rounds sees the same machine,
so the median of the pairs' gains holds where whole-run medians swing by 10-20% (a machine
shared with other work, or a host whose speed drifts). ab.py runs each copy in fresh
processes instead, which also covers import time and memory.

Usage: `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/paired.py TREE_A TREE_B
[--only alc] [--rounds N]`, where a tree is a directory holding `minigrad/` (a checkout, or
`git archive REV minigrad | tar -x -C DIR`). Workloads: a = the 2-16-16-1 MLP step, l = the same
step as the lessons write it, b = the 784-256-10 MLP step, c = a 20,000-op chain forward and
backward, k = the backward pass alone of l's step (the CPU time of `loss.backward()`, read as
phases.py reads it), u = l's update, `zero_()`s and `item()` alone (read the same way).
Prints B's gain over A in CPU time: the median over the pairs, and its quartiles."""
from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

import chain
import mlp
import phases


def _load(tree: str) -> dict[str, ModuleType]:
    """Import `tree`'s minigrad afresh; returns its modules, to be put back before each round
    (a module that imports another inside a function then finds its own copy's)."""
    _forget_minigrad()
    sys.path.insert(0, tree)
    try:
        module = importlib.import_module("minigrad")
    finally:
        sys.path.remove(tree)
    assert Path(module.__file__).resolve().is_relative_to(Path(tree).resolve()), module.__file__
    return {name: m for name, m in sys.modules.items() if _is_minigrad(name)}


def _is_minigrad(name: str) -> bool:
    return name == "minigrad" or name.startswith("minigrad.")


def _forget_minigrad() -> None:
    for name in [name for name in sys.modules if _is_minigrad(name)]:
        del sys.modules[name]


def _workload(key: str, minigrad: ModuleType):
    """(work, calls per round) for one workload on one copy."""
    if key == "c":
        return (lambda: chain.chain_backward(minigrad, 20_000)), 1
    if key in "ku":  # the step's phases in turn; the work returns the seconds of k's or u's
        inputs = phases._inputs(minigrad)
        part = slice(1, 2) if key == "k" else slice(2, 4)
        return (lambda: sum(phases._step_parts(minigrad, *inputs, time.process_time)[part])), 100
    contenders = {"a": mlp.small_mlp, "l": mlp.lesson_mlp, "b": mlp.mnist_mlp}[key]
    sys.modules["minigrad"] = minigrad  # mlp builds the contender from `import minigrad`
    work = contenders()["minigrad"]
    return work, (30 if key == "b" else 100)


def measure(key: str, trees: list[str], rounds: int) -> str:
    modules = [_load(tree) for tree in trees]
    works = []
    for mods in modules:
        _forget_minigrad()
        sys.modules.update(mods)
        works.append(_workload(key, mods["minigrad"]))
    gc.collect()
    gc.freeze()  # what is alive now is not walked by the collections of the rounds
    seconds: list[list[float]] = [[], []]
    for round_nr in range(rounds + 2):
        for i in ((0, 1) if round_nr % 2 == 0 else (1, 0)):
            _forget_minigrad()
            sys.modules.update(modules[i])
            work, calls = works[i]
            start = time.process_time()
            parts = [work() for _ in range(calls)]  # (k's, u's: the seconds of their part)
            spent = sum(parts) if key in "ku" else time.process_time() - start
            if round_nr >= 2:  # the first two rounds warm up
                seconds[i].append(spent / calls)
    gc.unfreeze()
    gains = [(a - b) / a for a, b in zip(*seconds)]
    low, _, high = statistics.quantiles(gains, n=4)
    unit, scale = ("ms", 1e3) if key == "c" else ("µs", 1e6)
    return (f"| {key} | {statistics.median(seconds[0]) * scale:.0f} {unit} | "
            f"{statistics.median(seconds[1]) * scale:.0f} {unit} | "
            f"{statistics.median(gains):+.1%} ({low:+.1%} to {high:+.1%}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs=2)
    parser.add_argument("--only", default="alc", help="workloads, of a, l, b, c, k, u")
    parser.add_argument("--rounds", type=int, default=40, help="pairs of rounds per workload")
    args = parser.parse_args()
    print(f"A = {args.trees[0]}\nB = {args.trees[1]}\n{args.rounds} pairs of rounds, CPU time\n")
    print("| workload | A | B | B's gain: median (quartiles) |\n| --- | --- | --- | --- |")
    for key in args.only:
        print(measure(key, args.trees, args.rounds), flush=True)


if __name__ == "__main__":
    main()
