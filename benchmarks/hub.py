"""The course on a JupyterHub on 127.0.0.1, as tests/deploy/test_jupyterhub.py sets it up (each
server started as the students' image starts it): how long the
hub and each student's server take to start, and how much memory each student costs.

    python benchmarks/hub.py               # 2 students
    python benchmarks/hub.py --students 5

Every student logs in through the REST API at the same moment and starts a server; once all are
ready, each runs lesson 03 in a kernel, one after the other. Prints, per student: seconds from
asking for the server to its being ready, the server's resident memory (RSS) idle and after the
lesson, the lesson kernel's RSS, and the lesson's run time. Needs configurable-http-proxy
(`npm install -g configurable-http-proxy@5.2.0`). On a shared machine the times grow with its
load, printed beside them."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "deploy"))
from hub_driver import ROOT, proxy_command, start_hub  # noqa: E402
from students_image import image_environment  # noqa: E402

LESSON = "notebooks/03_accumulation.ipynb"
MIB = 1024 * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=2, help="how many (default 2)")
    args = parser.parse_args()
    if args.students < 1:
        parser.error("--students must be 1 or more")
    if proxy_command() is None:
        print("configurable-http-proxy not installed: "
              "npm install -g configurable-http-proxy@5.2.0", file=sys.stderr)
        return 2
    students = [f"student{number}" for number in range(1, args.students + 1)]
    sources = [cell.source for cell in nbformat.read(ROOT / LESSON, as_version=4).cells
               if cell.cell_type == "code"]
    with tempfile.TemporaryDirectory(prefix="minigrad-hub-") as folder:
        # The students' image's files and environment, as the hub test builds them.
        hub = start_hub(Path(folder), students, image_environment(Path(folder) / "image"))
        try:
            for student in students:
                assert hub.log_in(student).status_code == 201, hub.fail(f"{student}'s log-in")
            with ThreadPoolExecutor(len(students)) as pool:
                took = list(pool.map(hub.start_and_wait, students))
            rows = []
            for student, start in zip(students, took):
                server = hub.server_process(student)
                idle = server.memory_info().rss / MIB
                kernel = hub.start_kernel(student, "notebooks")
                began = time.monotonic()
                hub.run_cells(student, kernel, sources)
                ran = time.monotonic() - began
                (kernel_process,) = [p for p in server.children()
                                     if any(kernel in part for part in p.cmdline())]
                rows.append((student, start, idle, server.memory_info().rss / MIB,
                             kernel_process.memory_info().rss / MIB, ran))
        finally:
            hub.stop()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"JupyterHub on 127.0.0.1, {args.students} students, {os.cpu_count()} CPUs, "
          f"load average {load}; hub started in {hub.started_in:.1f} s")
    print("| student | server start (s) | server RSS idle (MiB) | after the lesson (MiB) "
          "| lesson kernel RSS (MiB) | lesson 03 run (s) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for student, start, idle, after, kernel, ran in rows:
        print(f"| {student} | {start:.1f} | {idle:.0f} | {after:.0f} | {kernel:.0f} | {ran:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
