"""How long a learner waits: the first diagram of a fresh kernel, and each lesson run whole.

- first diagram: in a fresh Python process (what a new kernel is), with Graphviz's compiled
  module already in wasmtime's cache (`make lab` and `make venv` put it there), the first
  `viz.draw(y)` of a small graph rendered to SVG. Printed alone, and with the import of
  `minigrad` and `minigrad.viz` before it. Median of `--repeats` processes.
- lessons: each notebook in notebooks/ (the lessons as the course ships them, answered) run
  top to bottom in a kernel that is already started (Restart+Run All, less the kernel's
  start): the wall time from the first cell sent to the last cell's reply, and the kernel's
  CPU time over the same span.

Targets (issue 34): the first diagram <= 0.15 s; every lesson <= 3 s.
Usage: `python benchmarks/course_speed.py [--repeats N] [--only diagram|lessons] [NOTEBOOK ...]`."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIAGRAM_TARGET, LESSON_TARGET = 0.15, 3.0

FIRST_DIAGRAM = """
import json, time
start = time.perf_counter()
import minigrad as torch
from minigrad import viz
imported = time.perf_counter()
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
y = a * b + a.exp()
svg = viz.draw(y).svg()
end = time.perf_counter()
assert svg.lstrip().startswith("<svg") or "<svg" in svg[:500]
print(json.dumps({"draw": end - imported, "with_import": end - start}))
"""


def first_diagram(repeats: int) -> tuple[list[float], list[float]]:
    draws, totals = [], []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", FIRST_DIAGRAM], capture_output=True,
                             text=True, check=True, cwd=ROOT)
        result = json.loads(out.stdout.strip().splitlines()[-1])
        draws.append(result["draw"])
        totals.append(result["with_import"])
    return draws, totals


def run_lesson(path: Path) -> tuple[float, float]:
    """(wall seconds, kernel CPU seconds) of running every cell, the kernel already started."""
    import nbformat
    import psutil
    from nbclient import NotebookClient
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid
        kernel = psutil.Process(pid)
        client.execute_cell(nbformat.v4.new_code_cell("1"), 0)  # the kernel answers: it is up
        cpu = kernel.cpu_times()
        start = time.perf_counter()
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        wall = time.perf_counter() - start
        after = kernel.cpu_times()
    return wall, (after.user + after.system) - (cpu.user + cpu.system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", choices=("diagram", "lessons"))
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average {load} at the start; {os.cpu_count()} CPUs\n")
    if args.only != "lessons":
        draws, totals = first_diagram(args.repeats)
        draw, total = statistics.median(draws), statistics.median(totals)
        print(f"first diagram, median of {args.repeats} fresh processes: viz.draw to SVG "
              f"{draw:.3f} s ({'met' if draw <= DIAGRAM_TARGET else 'NOT met'}: <= "
              f"{DIAGRAM_TARGET} s); with the import of minigrad and minigrad.viz {total:.3f} s"
              f" (range of the draws {min(draws):.3f}-{max(draws):.3f} s)\n", flush=True)
    if args.only != "diagram":
        paths = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
        print("| lesson | Run All, wall s | kernel CPU s | <= 3 s? |\n| --- | --- | --- | --- |")
        for path in paths:
            wall, cpu = run_lesson(path)
            print(f"| {path.name} | {wall:.2f} | {cpu:.2f} | "
                  f"{'yes' if wall <= LESSON_TARGET else 'no'} |", flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nload average {load} at the end")


if __name__ == "__main__":
    main()
