"""How much memory a student's kernel takes: run lesson notebooks with nbclient, each in a fresh
kernel, and print the kernel's resident memory (RSS) after the run, its peak during the run
(sampled every 50 ms), and the CPU time the kernel used.

    python benchmarks/kernel_memory.py                       # every lesson in notebooks/
    python benchmarks/kernel_memory.py notebooks/03_accumulation.ipynb notebooks/14_capstone.ipynb

docs/jupyterhub.md sizes Zero to JupyterHub's memory and CPU per student from these figures."""
from __future__ import annotations

import argparse
import os
import threading
import time
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient

MIB = 2 ** 20
ROOT = Path(__file__).resolve().parent.parent


def measure(path: Path) -> tuple[float, float, float, float]:
    """(final RSS MiB, peak RSS MiB, kernel CPU seconds, wall seconds) of one run."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    peak = 0.0
    with client.setup_kernel():
        kernel = psutil.Process(client.km.provisioner.process.pid)
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, kernel.memory_info().rss / MIB)
                done.wait(0.05)

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.perf_counter()
        try:
            for index, cell in enumerate(notebook.cells):
                client.execute_cell(cell, index)
        finally:
            wall = time.perf_counter() - started
            done.set()
            sampler.join()
        final = kernel.memory_info().rss / MIB
        times = kernel.cpu_times()
    return final, max(peak, final), times.user + times.system, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        default=sorted((ROOT / "notebooks").glob("*.ipynb")))
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average "
          + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    print("| lesson | kernel RSS after (MiB) | peak (MiB) | kernel CPU (s) | wall (s) |")
    print("| --- | --- | --- | --- | --- |")
    for path in args.notebooks:
        final, peak, cpu, wall = measure(path)
        print(f"| {path.stem} | {final:.0f} | {peak:.0f} | {cpu:.1f} | {wall:.1f} |", flush=True)


if __name__ == "__main__":
    main()
