"""What a recorded operation's path costs, part by part: the figures of benchmarks/op_path.md.

Forward, for `h @ W` and `h + b` of the 2-16-16-1 step (workload (a′)): numpy's own work, the
result wrapped as a Tensor, the operation with nothing to record (under no_grad), the same
recorded, and from the operator (`h @ W`, through the Tensor method) recorded. The update, one
parameter's share: `lr * g` and `p -= t` under no_grad, `g.zero_()`, beside numpy. Backward, for the
node that product leaves: the node's formula alone (`grad_fn(grad)`), and a whole `backward()`
of the one-node graph (the engine's pass, with the leaf's AccumulateGrad). Then the Python calls
of one step of (a′), by phase (cProfile's count of function calls, C functions included),
which do not depend on the machine.

Usage: `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/op_path.py [TREE ...]`, where
each TREE holds a `minigrad/` to measure (default: this checkout), one column each (a tree of
an older commit: `git archive REV minigrad | tar -x -C DIR`). Times are CPU time, the best of
7 repeats of a loop, in each of two processes per tree, run in turn: the cost of the code
itself, with the least noise from a shared machine."""
from __future__ import annotations

import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent


def best_us(work, number: int = 20_000) -> float:
    """Microseconds per call: the best of 7 loops, in CPU time."""
    return min(timeit.repeat(work, number=number, repeat=7, timer=time.process_time)) / number * 1e6


def forward_rows(torch, np) -> list[tuple[str, float]]:
    from minigrad.ops import linalg, pointwise
    rng = np.random.default_rng(0)
    h = torch.tensor(rng.random((100, 16), dtype=np.float32))
    W = torch.tensor(rng.random((16, 16), dtype=np.float32), requires_grad=True)
    b = torch.tensor(rng.random(16, dtype=np.float32), requires_grad=True)
    hd, Wd, bd = h._data, W._data, b._data
    rows = [("`h @ W`: numpy's product", best_us(lambda: hd @ Wd)),
            ("... and its result made a Tensor", best_us(lambda: torch.Tensor(hd @ Wd)))]
    with torch.no_grad():
        rows.append(("`Mm.apply(h, W)` under no_grad (nothing recorded)",
                     best_us(lambda: linalg.Mm.apply(h, W))))
    rows += [("`Mm.apply(h, W)` recorded", best_us(lambda: linalg.Mm.apply(h, W))),
             ("`h @ W` recorded (the operator, through the Tensor method)",
              best_us(lambda: h @ W))]
    z = h @ W
    zd = z._data
    rows += [("`z + b`: numpy's sum", best_us(lambda: zd + bd)),
             ("`Add.apply(z, b)` recorded", best_us(lambda: pointwise.Add.apply(z, b))),
             ("`z + b` recorded (the operator)", best_us(lambda: z + b)),
             ("`z.relu()` recorded", best_us(lambda: z.relu()))]
    with torch.no_grad():
        rows.append(("`z + b` under no_grad", best_us(lambda: z + b)))
    return rows


def update_rows(torch, np) -> list[tuple[str, float]]:
    """The update of (a′), one parameter's part: `p -= lr * p.grad` under no_grad, then
    `p.grad.zero_()`, each beside numpy's own work."""
    rng = np.random.default_rng(0)
    p = torch.tensor(rng.random((16, 16), dtype=np.float32), requires_grad=True)
    g = torch.tensor(rng.random((16, 16), dtype=np.float32))
    pd, gd, lr = p._data, g._data, 0.01

    def enter_and_leave() -> None:
        with torch.no_grad():
            pass

    rows = [("`lr * g`: numpy's product", best_us(lambda: lr * gd))]
    with torch.no_grad():
        step = lr * g
        rows += [("`lr * g` under no_grad", best_us(lambda: lr * g)),
                 ("`p -= t`: numpy's in-place difference", best_us(lambda: pd.__isub__(gd))),
                 ("`p -= t` under no_grad", best_us(lambda: p.__isub__(step))),
                 ("`with no_grad(): pass`", best_us(enter_and_leave))]
    rows += [("`g.zero_()`: numpy's `g.fill(0)`", best_us(lambda: gd.fill(0))),
             ("`g.zero_()`, grad mode on (as the lessons call it)", best_us(g.zero_))]
    return rows


def backward_rows(torch, np) -> list[tuple[str, float]]:
    rng = np.random.default_rng(0)
    h = torch.tensor(rng.random((100, 16), dtype=np.float32))
    W = torch.tensor(rng.random((16, 16), dtype=np.float32), requires_grad=True)
    b = torch.tensor(rng.random(16, dtype=np.float32), requires_grad=True)
    grad = torch.ones(100, 16)
    z = h @ W
    node = z.grad_fn
    rows = [("`MmBackward0(grad)`: the node's formula (one product, a transpose)",
             best_us(lambda: node(grad)))]
    s = z + b
    rows.append(("`AddBackward0(grad)`", best_us(lambda: s.grad_fn(grad))))

    def one_node() -> None:
        (h @ W).backward(grad)
        W.grad = None

    def two_nodes() -> None:
        (h @ W + b).backward(grad)
        W.grad = b.grad = None

    rows += [("`(h @ W).backward(grad)`: forward, then the pass (MmBackward0, AccumulateGrad)",
              best_us(one_node, 5_000)),
             ("`(h @ W + b).backward(grad)`: the same with the bias (broadcast summed back)",
              best_us(two_nodes, 5_000))]
    return rows


def step_calls(torch, np) -> list[tuple[str, int]]:
    """Function calls per phase of one step of (a′), counted by cProfile."""
    sys.path.insert(0, str(HERE))
    import mlp
    weights = mlp._weights([2, 16, 16, 1], seed=0)
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
    labels = np.where(np.sin(3 * x[:, :1]) * x[:, 1:] > 0, 1, -1).astype(np.float32)
    params = [torch.tensor(w, requires_grad=True) for w in weights]
    xs, ys = torch.tensor(x), torch.tensor(labels)
    for _ in range(3):
        mlp.lesson_step(torch, params, xs, ys)

    def count(work) -> tuple[int, object]:
        profile = cProfile.Profile()
        profile.enable()
        result = work()
        profile.disable()
        return pstats.Stats(profile).total_calls, result

    def forward():
        h = xs
        for i in range(0, len(params) - 2, 2):
            h = (h @ params[i] + params[i + 1]).relu()
        scores = h @ params[-2] + params[-1]
        return (1 - ys * scores).relu().mean()

    def update():
        with torch.no_grad():
            for p in params:
                p -= mlp.LEARNING_RATE * p.grad

    def reset():
        for p in params:
            p.grad.zero_()
        return loss.item()

    forward_calls, loss = count(forward)
    rows = [("forward: 12 recorded operations", forward_calls),
            ("backward: 12 nodes and 6 AccumulateGrad", count(loss.backward)[0]),
            ("update under no_grad: 6 parameters", count(update)[0]),
            ("`zero_()` of 6 gradients and `.item()`", count(reset)[0])]
    rows.append(("the whole step", sum(n for _, n in rows)))
    return rows


def measure(tree: Path) -> dict:
    """Every row's figure for the minigrad in `tree` (run in a process of its own)."""
    sys.path.insert(0, str(tree))
    import numpy as np

    import minigrad as torch
    assert Path(torch.__file__).resolve().is_relative_to(tree), torch.__file__
    return {"forward": forward_rows(torch, np), "update": update_rows(torch, np),
            "backward": backward_rows(torch, np), "calls": step_calls(torch, np)}


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        print(json.dumps(measure(Path(sys.argv[2]).resolve())))
        return
    trees = [Path(t).resolve() for t in sys.argv[1:]] or [HERE.parent]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    # Each tree in a fresh process, twice, alternating; each time row the best of both runs.
    runs: dict[Path, list[dict]] = {tree: [] for tree in trees}
    for _ in range(2):
        for tree in trees:
            out = subprocess.run([sys.executable, __file__, "--child", str(tree)],
                                 capture_output=True, text=True, check=True)
            runs[tree].append(json.loads(out.stdout))
    header = " | ".join(str(tree) for tree in trees)
    print(f"load average {load}; CPU time, best of 7 loops in each of 2 processes per tree\n")
    for part, unit in (("forward", "µs"), ("update", "µs"), ("backward", "µs"),
                       ("calls", "calls")):
        print(f"| {part} ({unit}) | {header} |\n|---|{'---|' * len(trees)}")
        rows = runs[trees[0]][0][part]
        for i, (name, _) in enumerate(rows):
            cells = []
            for tree in trees:
                values = [run[part][i][1] for run in runs[tree]]
                cells.append(f"{min(values):,}" if part == "calls" else f"{min(values):.2f}")
            print(f"| {name} | {' | '.join(cells)} |")
        print()


if __name__ == "__main__":
    main()
