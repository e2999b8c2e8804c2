"""minigrad beside its peers, the other autograds a learner might read: mygrad (a pure-Python
numpy autograd with `.backward()` and `.grad`), HIPS autograd (`grad` of a numpy function) and
PyTorch. Each runs its own version of the same two workloads:

- step: one training step of a 2-16-16-1 ReLU MLP on 100 points, hinge loss, SGD. minigrad and
  PyTorch run the step as the lessons write it (`mlp.lesson_step`); mygrad calls `.backward()`
  and updates each parameter's `.data`; autograd takes `value_and_grad` of a loss function.
- chain: 100,000 chained scalar products `y = y * c`, forward and backward.

Every measurement runs in a fresh process that imports one library only, so no library pays
for another's objects or caches; a round runs every contender once, in a rotating order, and
the ratios are taken within each round (minigrad's time over the peer's), then their median
over the rounds: rounds that ran at the same time saw the same machine. Time is the child's CPU
time (`time.process_time`), which leaves out the waits for a core on a shared machine; run with
one BLAS thread (`make bench` sets it) so that it counts one thread's work.

Usage: `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/peers.py [--rounds N]
[--only step,chain] [--contenders minigrad,torch,mygrad,autograd]`. The targets (issue 34):
minigrad's step no slower than mygrad's or autograd's (ratio <= 1.00), the chain ahead of
both."""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CONTENDERS = ("minigrad", "torch", "mygrad", "autograd")
WORKLOADS = ("step", "chain")
CHAIN_LENGTH = 100_000
FACTOR = 1.0000001
LEARNING_RATE = 0.01
STEP_SAMPLE_SECONDS = 0.5  # CPU time a child spends on timed steps
TARGETS = {"step": 1.00, "chain": 1.00}  # minigrad / peer, at most


# ---- the workloads, one version per library ---------------------------------------------------

def _data() -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """mlp.lesson_mlp's weights, points and labels (-1 or 1)."""
    sys.path.insert(0, str(HERE))
    import mlp
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
    labels = np.where(np.sin(3 * x[:, :1]) * x[:, 1:] > 0, 1, -1).astype(np.float32)
    return mlp._weights([2, 16, 16, 1], seed=0), x, labels


def _tensor_step(name: str) -> Callable[[], float]:
    """minigrad's and PyTorch's: the lessons' step, the same code for both."""
    import importlib
    import mlp
    lib = importlib.import_module(name)
    weights, x, labels = _data()
    params = [lib.tensor(w, requires_grad=True) for w in weights]
    xs, ys = lib.tensor(x), lib.tensor(labels)
    return lambda: mlp.lesson_step(lib, params, xs, ys)


def _mygrad_step() -> Callable[[], float]:
    """mygrad's own way: `.backward()`, then each parameter's `.data` updated from its `.grad`
    (a numpy array); backward clears the graph and the next step's ops reset the gradients."""
    import mygrad as mg
    from mygrad.nnet import relu
    weights, x, labels = _data()
    params = [mg.tensor(w) for w in weights]

    def step() -> float:
        h = x
        for i in range(0, len(params) - 2, 2):
            h = relu(h @ params[i] + params[i + 1])
        scores = h @ params[-2] + params[-1]
        loss = mg.mean(relu(1 - labels * scores))
        loss.backward()
        for p in params:
            p.data -= LEARNING_RATE * p.grad
        return loss.item()

    return step


def _autograd_step() -> Callable[[], float]:
    """HIPS autograd's own way: `value_and_grad` of a function of the parameters."""
    import autograd.numpy as anp
    from autograd import value_and_grad
    weights, x, labels = _data()

    def loss_of(params: list) -> object:
        h = x
        for i in range(0, len(params) - 2, 2):
            h = anp.maximum(h @ params[i] + params[i + 1], 0)
        scores = h @ params[-2] + params[-1]
        return anp.mean(anp.maximum(1 - labels * scores, 0))

    loss_and_grads = value_and_grad(loss_of)

    def step() -> float:
        loss, grads = loss_and_grads(weights)
        for p, g in zip(weights, grads):
            p -= LEARNING_RATE * g
        return float(loss)

    return step


def _tensor_chain(name: str, length: int) -> Callable[[], float]:
    import importlib
    lib = importlib.import_module(name)

    def chain() -> float:
        x = lib.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(length):
            y = y * FACTOR
        y.backward()
        return x.grad.item()

    return chain


def _mygrad_chain(length: int) -> Callable[[], float]:
    import mygrad as mg

    def chain() -> float:
        x = mg.tensor(1.0)
        y = x
        for _ in range(length):
            y = y * FACTOR
        y.backward()
        return float(x.grad)

    return chain


def _autograd_chain(length: int) -> Callable[[], float]:
    from autograd import grad

    def f(x: float) -> float:
        y = x
        for _ in range(length):
            y = y * FACTOR
        return y

    derivative = grad(f)
    return lambda: float(derivative(1.0))


def build(contender: str, workload: str, length: int = CHAIN_LENGTH) -> Callable[[], float]:
    if workload == "step":
        if contender in ("minigrad", "torch"):
            return _tensor_step(contender)
        return {"mygrad": _mygrad_step, "autograd": _autograd_step}[contender]()
    if contender in ("minigrad", "torch"):
        return _tensor_chain(contender, length)
    return {"mygrad": _mygrad_chain, "autograd": _autograd_chain}[contender](length)


# ---- one measurement, in a child process -------------------------------------------------------

def child(contender: str, workload: str) -> None:
    """Print the CPU seconds per call of one contender's workload, as JSON."""
    sys.path.insert(0, str(HERE.parent))  # this checkout's minigrad, installed or not
    sys.path.insert(0, str(HERE))
    work = build(contender, workload)
    if workload == "chain":
        build(contender, workload, 1_000)()  # warm up on a short chain
        gc.collect()
        start = time.process_time()
        work()
        seconds, calls = time.process_time() - start, 1
    else:
        for _ in range(20):  # warm up, then size the sample
            work()
        start = time.process_time()
        work()
        once = max(time.process_time() - start, 1e-6)
        calls = max(10, int(STEP_SAMPLE_SECONDS / once))
        gc.collect()
        start = time.process_time()
        for _ in range(calls):
            work()
        seconds = time.process_time() - start
    print(json.dumps({"seconds": seconds / calls, "calls": calls}))


def _run_child(contender: str, workload: str) -> float | str:
    result = subprocess.run([sys.executable, __file__, "--child", contender, workload],
                            capture_output=True, text=True)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["failed"])[-1]
        return "not installed" if "ModuleNotFoundError" in last else last
    return json.loads(result.stdout.strip().splitlines()[-1])["seconds"]


# ---- the table -----------------------------------------------------------------------------

def _format(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else (
        f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} µs")


def measure(workload: str, contenders: list[str], rounds: int) -> dict[str, list]:
    """Per contender, its seconds in each round (or why it could not run)."""
    samples: dict[str, list] = {name: [] for name in contenders}
    for round_nr in range(rounds):
        shift = round_nr % len(contenders)
        for name in contenders[shift:] + contenders[:shift]:
            samples[name].append(_run_child(name, workload))
        print(f"  {workload} round {round_nr + 1}/{rounds}: " + ", ".join(
            f"{n} {_format(s[-1]) if isinstance(s[-1], float) else s[-1]}"
            for n, s in samples.items()), file=sys.stderr, flush=True)
    return samples


def table(workload: str, samples: dict[str, list]) -> str:
    title = ("2-16-16-1 MLP step, 100 points" if workload == "step"
             else f"{CHAIN_LENGTH:,}-op scalar chain, forward + backward")
    rows = [f"### {title}", "",
            "| contender | median | minigrad / contender: median of per-round ratios "
            "(quartiles) | rounds | target met? |", "| --- | --- | --- | --- | --- |"]
    ours = samples.get("minigrad", [])
    for name, values in samples.items():
        times = [v for v in values if isinstance(v, float)]
        if not times:
            rows.append(f"| {name} | {values[0] if values else 'n/a'} | | 0 | |")
            continue
        ratio_cell, verdict = "", ""
        pairs = [(a, b) for a, b in zip(ours, values)
                 if isinstance(a, float) and isinstance(b, float)]
        if name != "minigrad" and pairs:
            ratios = [a / b for a, b in pairs]
            median = statistics.median(ratios)
            low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (median,) * 3
            ratio_cell = f"{median:.2f} ({low:.2f}-{high:.2f})"
            if name in ("mygrad", "autograd"):
                limit = TARGETS[workload]
                verdict = f"{'yes' if median <= limit else 'no'} (≤ {limit:.2f})"
        rows.append(f"| {name} | {_format(statistics.median(times))} | {ratio_cell} | "
                    f"{len(times)} | {verdict} |")
    return "\n".join(rows)


def environment() -> str:
    from importlib.metadata import PackageNotFoundError, version
    revision = subprocess.run(["git", "-C", str(HERE), "describe", "--always", "--dirty"],
                              capture_output=True, text=True).stdout.strip() or "unknown"
    versions = [f"minigrad of this checkout ({revision})"]
    for name in CONTENDERS[1:] + ("numpy",):
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            versions.append(f"{name} not installed")
    threads = ", ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                        if k.startswith(("OPENBLAS", "OMP_", "MKL_"))) or "none set"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"Python {sys.version.split()[0]}, {', '.join(versions)}; {os.cpu_count()} CPUs, "
            f"load average {load} at the start; BLAS/thread variables: {threads}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--contenders", default=",".join(CONTENDERS))
    parser.add_argument("--child", nargs=2, metavar=("CONTENDER", "WORKLOAD"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    contenders = args.contenders.split(",")
    print(environment())
    print(f"`python benchmarks/peers.py --rounds {args.rounds}`: each figure is a median over "
          f"{args.rounds} rounds, each measurement a fresh process, in CPU time.\n", flush=True)
    for workload in args.only.split(","):
        print(table(workload, measure(workload, contenders, args.rounds)) + "\n", flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average {load} at the end")


if __name__ == "__main__":
    main()
