"""How many submissions a minute the course's grader and nbgrader's autograde get through: a class
of synthetic students hand in ex03_accumulation (a third untouched, a third worked, a third with
wrong answers), graded with `python -m minigrad_course.grade --jobs N` for each N asked, then with
`nbgrader autograde` (which grades one student after the other). Prints figures; checks nothing.

    python benchmarks/grading.py [--students 50] [--jobs 1 2 4] [--no-nbgrader] [--course DIR]

Every notebook runs in a fresh worker of its own (minigrad_course.grade.runner: a Python
process running an IPython shell, without Jupyter's messaging), contained as the grader can
(run as root, as CI is: a user id, namespaces and a file system of its own, see
minigrad_course/grade/sandbox.py); the last line the grader prints says how, and is printed
here. Reusing a worker for the next student would save its start, but not safely: a learner's
notebook can change anything in its process, and the next learner's answers would run there.
The CPU figure counts the grader, its launchers and its workers."""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT = "ex03_accumulation"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"

sys.path.insert(0, str(ROOT))
from minigrad_course.checks import markers  # noqa: E402

WRONG = {"03-both-orders": "both_orders = [4.0, 4.0, 12.0, 12.0]",
         "03-loop": "after_loop = [4.0, 4.0]"}


def submissions(exercise: dict, solution: dict, count: int) -> list[dict]:
    """`count` notebooks: untouched, worked, and worked with two wrong answers, in turn."""
    answers = {markers.grade_id(cell): "\n".join(
        line for line in markers.source_of(cell).split("\n")
        if line.strip() not in (markers.BEGIN_SOLUTION, markers.END_SOLUTION))
        for cell in solution["cells"] if markers.is_answer(cell)}
    out = []
    for index in range(count):
        notebook = json.loads(json.dumps(exercise))
        kind = index % 3
        for cell in notebook["cells"]:
            cell_id = markers.grade_id(cell)
            if kind and cell_id in answers:
                cell["source"] = WRONG.get(cell_id, answers[cell_id]) if kind == 2 else \
                    answers[cell_id]
        out.append(notebook)
    return out


def student(index: int) -> str:
    return f"student{index:03d}"


CPU_SECONDS = [0.0]  # of the last command timed, its kernels included
LAST_TOTAL = [""]  # the last grader's "total: ..." line: a fast grading must also be right
LAST_WORKERS = [""]  # and its "workers: ..." line: how they were contained


def timed(command: list[str], cwd: Path, env: dict | None = None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_SECONDS[0] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    LAST_TOTAL[0] = next((line for line in done.stdout.splitlines()
                          if line.startswith("total:")), "")
    LAST_WORKERS[0] = next((line for line in done.stdout.splitlines()
                            if line.startswith("workers:")), "")
    if done.returncode not in (0, 1):  # 1: some exercises failed, as they should
        sys.exit(f"{command[2]} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed


def rate(count: int, seconds: float) -> str:
    """Wall-clock figures, and the CPU time each submission cost (on a shared machine the
    steadier figure: 2 free CPUs grade 120 / (CPU s each) submissions a minute)."""
    return f"{seconds:7.1f} s  {count / seconds * 60:6.1f} submissions/min  " \
           f"{seconds / count:5.2f} s each  {CPU_SECONDS[0] / count:5.2f} CPU s each"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=50)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--no-nbgrader", action="store_true", help="skip nbgrader autograde")
    parser.add_argument("--course", type=Path, default=ROOT,
                        help="grade with the minigrad_course of this checkout (another "
                             "version, side by side; default: this one)")
    args = parser.parse_args()
    load = lambda path: json.loads(path.read_text(encoding="utf-8"))  # noqa: E731
    notebooks = submissions(load(ROOT / "exercises" / NOTEBOOK),
                            load(ROOT / "solutions" / NOTEBOOK), args.students)
    expected = sum(4 if index % 3 == 1 else 2 if index % 3 == 2 else 0
                   for index in range(args.students))
    print(f"{args.students} submissions of {NOTEBOOK}, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}; {expected} exercises should pass")
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        paths = []
        for index, notebook in enumerate(notebooks):
            path = temp / "handed_in" / student(index) / NOTEBOOK
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps(notebook), encoding="utf-8")
            paths.append(str(path))
        for jobs in args.jobs:
            seconds = timed([sys.executable, "-m", "minigrad_course.grade", "--solutions",
                             str(ROOT / "solutions"), "--jobs", str(jobs), *paths],
                            args.course)
            print(f"minigrad_course.grade --jobs {jobs}:  {rate(len(paths), seconds)}  "
                  f"({LAST_TOTAL[0]})")
            if LAST_WORKERS[0]:
                print(f"  {LAST_WORKERS[0]}")
        if not args.no_nbgrader:
            print(f"nbgrader autograde:             {rate(len(paths), nbgrader(temp, notebooks))}")


def nbgrader(temp: Path, notebooks: list[dict]) -> float:
    """Lay out the class, release ex03, submit every notebook; the time of autograde alone."""
    course = temp / "class"
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                                 os.environ.get("PATH", "")]))
    timed([sys.executable, "-m", "minigrad_course.nbgrader_course", str(course), ASSIGNMENT],
          ROOT)
    timed([sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT], course, env)
    for index, notebook in enumerate(notebooks):
        # nbgrader's submissions are the released notebook (its checksums), answered.
        path = course / "submitted" / student(index) / ASSIGNMENT / NOTEBOOK
        path.parent.mkdir(parents=True)
        release = json.loads((course / "release" / ASSIGNMENT / NOTEBOOK).read_text("utf-8"))
        answers = {markers.grade_id(cell): cell["source"] for cell in notebook["cells"]}
        for cell in release["cells"]:
            if markers.is_answer(cell):
                cell["source"] = answers[markers.grade_id(cell)]
        path.write_text(json.dumps(release), encoding="utf-8")
    return timed([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT], course, env)


if __name__ == "__main__":
    main()
