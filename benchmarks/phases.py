"""Where the time of workload (a′) goes: the step as the lessons write it (mlp.lesson_step),
split into its phases (forward, backward, the update under no_grad, `zero_()` and `.item()`),
for minigrad beside PyTorch, then minigrad's backward split by node type, and what the engine
costs around the nodes.

Usage: `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/phases.py [--steps N]
[--tree DIR]`, DIR a tree holding the `minigrad/` to measure (default: this checkout; an older
commit's: `git archive REV minigrad | tar -x -C DIR`).
Each library runs N steps in turn, in rounds, and each phase's median over all the steps is
reported, in wall time: compare the columns, measured under the same conditions."""
from __future__ import annotations

import argparse
import collections
import gc
import itertools
import statistics
import sys
import time
from types import ModuleType

import mlp
import numpy as np
from libraries import optional

PHASES = ("forward", "backward", "update", "zero_ and item")


def _step_parts(lib: ModuleType, params: list, x: object, labels: object,
                clock=time.perf_counter) -> list[float]:
    """mlp.lesson_step, line for line, with the clock read between its phases (paired.py's
    workload k reads the CPU time)."""
    t0 = clock()
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    scores = h @ params[-2] + params[-1]
    loss = (1 - labels * scores).relu().mean()
    t1 = clock()
    loss.backward()
    t2 = clock()
    with lib.no_grad():
        for p in params:
            p -= mlp.LEARNING_RATE * p.grad
    t3 = clock()
    for p in params:
        p.grad.zero_()
    loss.item()
    t4 = clock()
    return [t1 - t0, t2 - t1, t3 - t2, t4 - t3]


def _inputs(lib: ModuleType) -> tuple[list, object, object]:
    sizes = [2, 16, 16, 1]  # as mlp.lesson_mlp
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
    labels = np.where(np.sin(3 * x[:, :1]) * x[:, 1:] > 0, 1, -1).astype(np.float32)
    params = [lib.tensor(w, requires_grad=True) for w in mlp._weights(sizes, seed=0)]
    return params, lib.tensor(x), lib.tensor(labels)


def _per_node(minigrad: ModuleType, steps: int) -> dict[str, list[float]]:
    """Seconds per call of each kind of node in minigrad's backward (the engine's
    run_node, timed around: the node's hooks, its backward and the check of its
    result), over `steps` steps."""
    from minigrad.autograd import engine
    times: dict[str, list[float]] = collections.defaultdict(list)
    plain = engine.GraphTask.run_node

    def timed(task, node, grads):
        start = time.perf_counter()
        result = plain(task, node, grads)
        times[node.name()].append(time.perf_counter() - start)
        return result

    params, x, labels = _inputs(minigrad)
    engine.GraphTask.run_node = timed
    try:
        for _ in range(steps):
            _step_parts(minigrad, params, x, labels)
    finally:
        engine.GraphTask.run_node = plain
    return times


def _engine_alone(minigrad: ModuleType, steps: int) -> float:
    """Median seconds of the backward pass with each node's own work (its hooks, its formula,
    the check of its result, `.grad`'s update) replaced by what it returned in a first pass:
    what is left is the engine's fixed cost, per pass and per edge (`backward()`'s checks,
    `GraphTask`, the loop's buffers and queue)."""
    from minigrad.autograd import engine
    params, x, labels = _inputs(minigrad)
    plain, returned = engine.GraphTask.run_node, []

    def recorded(task, node, grads):
        returned.append(plain(task, node, grads))
        return returned[-1]

    engine.GraphTask.run_node = recorded
    try:
        _step_parts(minigrad, params, x, labels)
        replayed = itertools.cycle(returned)  # every pass runs the nodes in the same order
        engine.GraphTask.run_node = lambda task, node, grads: next(replayed)
        times = [_step_parts(minigrad, params, x, labels)[1] for _ in range(steps)]
    finally:
        engine.GraphTask.run_node = plain
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="steps per library")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tree", help="a directory holding the minigrad/ to measure")
    args = parser.parse_args()
    if args.tree:
        sys.path.insert(0, args.tree)
    libraries = {name: lib for name in ("minigrad", "torch") if (lib := optional(name))}
    if "minigrad" in libraries:
        print(f"minigrad from {libraries['minigrad'].__file__}\n")
    inputs = {name: _inputs(lib) for name, lib in libraries.items()}
    parts: dict[str, list[list[float]]] = {name: [] for name in libraries}
    for name, lib in libraries.items():  # warm up
        for _ in range(50):
            _step_parts(lib, *inputs[name])
    gc.collect()
    gc.freeze()  # neither library's collections walk the other's objects (see timing.py)
    for _ in range(args.rounds):
        for name, lib in libraries.items():
            parts[name] += [_step_parts(lib, *inputs[name])
                            for _ in range(args.steps // args.rounds)]
    medians = {name: [statistics.median(step[i] for step in steps) * 1e6
                      for i in range(len(PHASES))] for name, steps in parts.items()}
    names = list(libraries)
    ratio = "torch" in medians and "minigrad" in medians
    print(f"| phase of (a′), µs | {' | '.join(names)} |{' ratio |' if ratio else ''}")
    print(f"| --- |{' --- |' * (len(names) + ratio)}")
    for i, phase in enumerate((*PHASES, "sum of the medians")):
        cells = [sum(m) if i == len(PHASES) else m[i] for m in medians.values()]
        row = " | ".join(f"{c:.0f}" for c in cells)
        print(f"| {phase} | {row} |{f' {cells[0] / cells[1]:.2f}x |' if ratio else ''}")
    if "minigrad" in libraries:
        times = _per_node(libraries["minigrad"], args.steps // args.rounds)
        steps = args.steps // args.rounds
        print("\n| minigrad's backward, by node | calls per step | µs per call | µs per step |")
        print("| --- | --- | --- | --- |")
        for name, values in sorted(times.items(), key=lambda kv: -sum(kv[1])):
            print(f"| {name} | {len(values) / steps:.0f} | {statistics.median(values) * 1e6:.1f} | "
                  f"{sum(values) / steps * 1e6:.0f} |")
        engine_alone = _engine_alone(libraries["minigrad"], steps) * 1e6
        print(f"\nThe backward pass with every node's work replaced by its recorded result (the "
              f"engine's own cost): {engine_alone:.1f} µs")


if __name__ == "__main__":
    main()
