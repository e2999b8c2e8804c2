"""python -m minigrad_course.grade NOTEBOOK_OR_FOLDER ... [--timeout S] [--notebook-timeout S]
                                  [--memory MIB] [--solutions DIR] [--jobs N]
                                  [--csv PATH] [--json PATH]

Every notebook named (or found in a folder named), and the solutions each is graded with, are
read into memory before the first one is graded, so a notebook that deletes or edits files
changes no other notebook's grade. Each gets its report, in the order given, whatever happens to
the others; the last line says how the workers were contained (see `sandbox`).

Exit code: 0 when every exercise of every notebook passed; 1 when every notebook was graded and
some exercise did not pass; 2 when a notebook could not be graded at all (not a notebook, not
of this course: its report is one line starting with "error:"), on bad usage (no notebook
found, no such --solutions folder), when --csv or --json could not be written, or on an error of
the grader itself. For a class, 1 is the usual outcome (someone always fails something): read
the scores from --csv or --json, and treat only 2 as the grading having gone wrong.

--csv and --json write one row per exercise (student, assignment, exercise, score, max_score,
status, message, notebook; see `table`); notebooks in nbgrader's layout
(submitted/<student>/<assignment>/) also get one summary line per student after the reports."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import NOTEBOOK_TIMEOUT, NotebookGrade, Unreadable, grade_notebook, grader
from .plan import find_reference, load, not_of_this_course, read, stripped
from .report import exercise_lines, printable
from .runner import capped
from .worker import MEMORY_MB, NamespacePackage
from .table import as_csv, as_json, rows, summary_lines


def notebooks(paths: list[Path]) -> list[Path]:
    """The notebooks named, with folders expanded to their *.ipynb files (sorted); a folder
    with none of its own, such as nbgrader's submitted/, to the notebooks below it (not in
    hidden folders such as .ipynb_checkpoints)."""
    found = []
    for path in paths:
        if not path.is_dir():
            found.append(path)
            continue
        own = sorted(p for p in path.glob("*.ipynb") if p.is_file())
        found += own or sorted(p for p in path.rglob("*.ipynb") if p.is_file() and not any(
            part.startswith(".") for part in p.relative_to(path).parts))
    return found


def _show(path: Path) -> str:
    """A path as the learner would type it: relative to where they are when it is below or
    beside it (exercises/ex03_x.ipynb, ../solutions/ex03_x.ipynb), else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return printable(str(path.resolve()))
    parts = Path(relative).parts
    beside = parts[0] != ".." or (parts.count("..") == 1 and len(parts) == 3)
    return printable(relative if beside else str(path.resolve()))


def report(grade: NotebookGrade) -> str:
    source = f"checks from {_show(grade.reference)}" if grade.reference else \
        "checks from the notebook itself: no solutions/ found, hidden tests skipped"
    if grade.reference is not None and grade.reference.name != grade.path.name:
        source += ", matched by its exercises"
    lines = [f"{_show(grade.path)}  ({source})", *exercise_lines(grade)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m minigrad_course.grade",
        description="Grade exercise notebooks, each in a fresh kernel.",
        epilog="exit status: 0 every exercise passed; 1 some did not (the usual outcome for a "
               "class: read the scores from --csv or --json); 2 a notebook could not be graded, "
               "bad usage, --csv/--json not writable, or a grader error (every other report is "
               "still printed)")
    parser.add_argument("paths", nargs="+", type=Path, help="notebooks or folders of them")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds a cell may run before it is stopped (default 30)")
    parser.add_argument("--notebook-timeout", type=float, default=NOTEBOOK_TIMEOUT,
                        help="seconds a whole notebook may run; cells left then are not run "
                             f"(default {NOTEBOOK_TIMEOUT:g})")
    parser.add_argument("--memory", type=float, default=MEMORY_MB,
                        help=f"MiB of memory each kernel may use (default {MEMORY_MB:g})")
    parser.add_argument("--solutions", type=Path, default=None,
                        help="folder with the reference notebooks (default: ../solutions "
                             "next to each notebook's folder, else solutions/ of the course "
                             "around the current folder, else none: each notebook's own "
                             "checks, without hidden tests)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="notebooks graded at the same time, each in its own kernel "
                             "(default 1)")
    parser.add_argument("--csv", type=Path, default=None, metavar="PATH",
                        help="also write the grades as CSV, one row per exercise")
    parser.add_argument("--json", type=Path, default=None, metavar="PATH",
                        help="also write the grades as JSON, a list of the same rows")
    args = parser.parse_args(argv)
    if args.solutions is not None and not args.solutions.is_dir():
        print(f"error: --solutions {args.solutions}: no such folder", file=sys.stderr)
        return 2
    paths = notebooks(args.paths)
    if not paths:
        print("no notebooks found in " + ", ".join(map(str, args.paths)), file=sys.stderr)
        return 2

    try:
        run = grader()
    except NamespacePackage as error:
        print(f"error: {error}: run the grader from another folder, or install the course "
              "(pip install -e .)", file=sys.stderr)
        return 2
    references: dict[Path, dict] = {}  # each solutions notebook read once, shared
    contents = {path: _read_with_reference(path, args.solutions, references) for path in paths}

    def grade_one(path: Path) -> NotebookGrade | Unreadable:
        if isinstance(contents[path], Unreadable):
            return contents[path]
        data, reference = contents[path]
        try:
            return grade_notebook(path, args.solutions, args.timeout, args.notebook_timeout,
                                  data, args.memory, reference)
        except Unreadable as error:
            return error
        except Exception as error:  # noqa: BLE001 - one line for it, and the others go on
            return Unreadable(f"{path}: the grader failed on it ({type(error).__name__}: "
                              f"{capped(str(error), 300)})")

    table = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        # map() yields in the order given, so the report reads the same however many jobs run.
        grades = pool.map(grade_one, paths)
        unreadable = False
        passed = total = 0
        for path, grade in zip(paths, grades):
            table += rows(path, grade)
            if isinstance(grade, Unreadable):
                print(f"error: {printable(' '.join(str(grade).split()))}", flush=True)
                unreadable = True
                continue
            print(report(grade), flush=True)
            passed += grade.passed
            total += len(grade.results)
    for line in summary_lines(table):
        print(line)
    if len(paths) > 1:
        print(f"total: {passed} of {total} exercises passed in {len(paths)} notebooks")
    if total:  # some notebook ran in a worker
        print(f"workers: {run.sandbox.described}")
    for destination, render in ((args.csv, as_csv), (args.json, as_json)):
        if destination is None:
            continue
        try:
            write_whole(destination, render(table))
        except OSError as error:
            print(f"error: could not write {destination}: {error.strerror or error}",
                  file=sys.stderr)
            return 2
    if unreadable:
        return 2
    return 0 if passed == total else 1


def _read_with_reference(path: Path, solutions: Path | None, references: dict[Path, dict]
                         ) -> tuple[bytes, tuple[Path | None, dict]] | Unreadable:
    """The notebook's bytes (without outputs) and its solutions notebook, both read now,
    before any grading: a notebook that rewrites solutions/ (or anything else) while graded
    changes no grade."""
    try:
        learner = load(path, read(path))
        reference = find_reference(path, learner, solutions)
        if reference is None and solutions is not None:
            raise not_of_this_course(path, learner, solutions)
        if reference is None:
            return stripped(learner), (None, learner)
        if reference not in references:
            references[reference] = load(reference)
        return stripped(learner), (reference, references[reference])
    except Unreadable as error:
        return error


def write_whole(destination: Path, text: str) -> None:
    """Write a file in one step (a temporary file beside it, renamed over it): a reader never
    sees half of it, and a link planted where it goes is replaced, not followed."""
    folder = destination.parent if str(destination.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{destination.name}.")
    try:
        # A file name that is no UTF-8 (its bytes read as lone surrogates) is written as
        # escapes (\udce9): valid JSON that reads back as the same name, text in a CSV.
        with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace") as out:
            out.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, destination)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


if __name__ == "__main__":
    sys.exit(main())
