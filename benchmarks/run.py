"""minigrad's speed and memory next to PyTorch, micrograd and plain numpy, measured side by side
in one run. Usage: `python benchmarks/run.py [--repeats N] [--only abcd] [--cpu-time] [--write]`.

Prints a markdown table; `--write` also stores it in benchmarks/results.md. The targets are
issue 12's, as issue 34 revised them: (a) <= 2.5x PyTorch, (b) <= 1.5x numpy by hand (no
longer against PyTorch: one BLAS thread each, MKL against OpenBLAS), (c) <= 2x PyTorch, (d) a
peak under 1 GiB; beside the peers, benchmarks/peers.py. (a′) and (c′) are (a) and (c) written as the
lessons write code (Python numbers on the left, a hinge loss, the update under no_grad,
`zero_()`, `.item()`), held to the same targets. Timings are medians
of N interleaved rounds; a ratio is the median of the rounds' ratios (in a round every
contender runs once, side by side), with their quartiles: compare the ratios, which are
measured under the same conditions.
On a machine shared with other work, `--cpu-time` times every row in this process's CPU time,
which leaves out the waits for a core; run it with one BLAS thread
(`OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`), or (b) counts the work of every thread.
The run uses the environment as it is, BLAS variables included (they are printed); to compare
without them: `env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/run.py`."""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import chain
import memory
import mlp
from libraries import version
from timing import format_seconds, interleaved_rounds

HEADER = ("| workload | minigrad | torch | micrograd / numpy | ratio (quartiles) | target met? |\n"
          "| --- | --- | --- | --- | --- | --- |")
MEMORY_LIMIT_MIB = 1024


def _timed_row(title: str, contenders: dict[str, Callable | str], third: str,
               limits: dict[str, float], repeats: int,
               clock: Callable[[], float] = time.perf_counter) -> str:
    """One table row: medians of the contenders that can run, the others' reason, and
    minigrad's ratio to each reference in `limits` (reference -> the most it may be)."""
    runnable = {name: work for name, work in contenders.items() if callable(work)}
    rounds = interleaved_rounds(runnable, repeats, clock=clock)
    medians = {name: statistics.median(values) for name, values in rounds.items()}
    cells = {name: format_seconds(medians[name]) if name in medians else contenders[name]
             for name in contenders}
    ratios, verdicts = [], []
    for reference, limit in limits.items():
        if "minigrad" in medians and reference in medians:
            # the ratio within each round, whose contenders ran side by side: its median, and
            # the spread between rounds (their quartiles)
            per_round = [ours / theirs for ours, theirs in zip(rounds["minigrad"],
                                                               rounds[reference])]
            ratio = statistics.median(per_round)
            low, _, high = statistics.quantiles(per_round, n=4)
            ratios.append(f"{ratio:.2f}x {reference} ({low:.2f}-{high:.2f})")
            verdicts.append(f"{'yes' if ratio <= limit else 'no'} (≤ {limit:g}x {reference})")
        else:
            ratios.append("n/a")
            verdicts.append(f"n/a ({reference} {cells.get(reference, 'missing')})")
    return (f"| {title} | {cells['minigrad']} | {cells['torch']} | {third}: {cells[third]} | "
            f"{', '.join(ratios)} | {', '.join(verdicts)} |")


def _memory_cell(result: tuple[float, float] | str) -> str:
    if isinstance(result, str):
        return result
    peak, baseline = result
    return f"{peak:.0f} MiB peak ({baseline:.0f} after import)"


def _memory_row() -> str:
    ours, theirs = memory.peak_mib("minigrad"), memory.peak_mib("torch")
    if isinstance(ours, str):
        ratio_cell, met = "n/a", "no"
    else:
        ratio_cell = f"{ours[0] / MEMORY_LIMIT_MIB:.2f}x 1 GiB"
        met = f"{'yes' if ours[0] < MEMORY_LIMIT_MIB else 'no'} (< 1 GiB)"
    return (f"| (d) peak memory, 1,000,000-op chain forward + backward | {_memory_cell(ours)} | "
            f"{_memory_cell(theirs)} | — | {ratio_cell} | {met} |")


def environment() -> str:
    threads = ", ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                        if k.startswith(("OPENBLAS", "OMP_", "MKL_"))) or "none set"
    return (f"Python {platform.python_version()}, numpy {version('numpy')}, "
            f"torch {version('torch')}, micrograd {version('micrograd')}, "
            f"{os.cpu_count()} CPUs; BLAS/thread variables: {threads}")


GRADING_SECTION = "\n## Grading (benchmarks/grading.py)\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="interleaved rounds (median)")
    parser.add_argument("--only", default="abcd", help="which workloads, e.g. 'ac'")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time in CPU time, not wall time (with one BLAS thread)")
    parser.add_argument("--write", action="store_true", help="also write benchmarks/results.md")
    args = parser.parse_args()
    clock = time.process_time if args.cpu_time else time.perf_counter

    print(environment(), flush=True)
    rows = [HEADER]
    if "a" in args.only:
        rows.append(_timed_row("(a) 2-16-16-1 MLP training step, 100 points", mlp.small_mlp(),
                               "micrograd", {"torch": 2.5}, args.repeats, clock))
        rows.append(_timed_row("(a′) the same step as the lessons write it: hinge loss "
                               "`(1 - y * out).relu().mean()`, `p -= lr * p.grad` under "
                               "`no_grad`, `zero_()`, `.item()`", mlp.lesson_mlp(),
                               "micrograd", {"torch": 2.5}, args.repeats, clock))
    if "b" in args.only:
        rows.append(_timed_row("(b) 784-256-10 MLP training step, 128 rows", mlp.mnist_mlp(),
                               "numpy", {"numpy": 1.5}, args.repeats, clock))
    if "c" in args.only:
        rows.append(_timed_row(f"(c) {chain.LENGTH:,} chained scalar `*`, forward + backward",
                               chain.scalar_chain(), "micrograd", {"torch": 2.0}, args.repeats,
                               clock))
        rows.append(_timed_row(f"(c′) the chain with numbers first, `y = 1 - c * y`: "
                               f"{chain.LENGTH:,} ops",
                               chain.scalar_chain(numbers_first=True), "micrograd",
                               {"torch": 2.0}, args.repeats, clock))
    if "d" in args.only:
        rows.append(_memory_row())
    table = "\n".join(rows)
    print(table)
    if args.write:
        command = f"python benchmarks/run.py{' --cpu-time' if args.cpu_time else ''} --write"
        clock_name = "CPU time" if args.cpu_time else "wall time"
        text = (f"# Benchmark results\n\nMeasured with `{command}` (median of {args.repeats} "
                f"interleaved rounds, in {clock_name}).\n\n{environment()}\n\n{table}\n")
        path = Path(__file__).with_name("results.md")
        kept = path.read_text().partition(GRADING_SECTION)  # benchmarks/grading.py's figures
        path.write_text(text + (GRADING_SECTION + kept[2] if kept[1] else ""))


if __name__ == "__main__":
    main()
