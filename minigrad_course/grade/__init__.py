"""Grade exercise notebooks: `python -m minigrad_course.grade exercises/ex03_accumulation.ipynb`
(or a folder). Each notebook runs in a fresh worker of its own (`worker`), contained by the
operating system where the grader may (`sandbox`), one cell at a time, so a broken cell costs
only its own exercise. The verdicts are the judge's (`judge`): computed in this process, where
no learner's code runs, from data the worker sends back. See `plan` for which cells run:
read-only cells and the check calls (hidden tests included) come from the solutions notebook of
the same name (or with the same exercises), found with --solutions, in ../solutions beside the
notebook's folder, or in the course around the current folder; without one (an installed copy
grading a student's folder), from the notebook itself.

Only `python -m minigrad_course.grade` needs IPython, in the worker; importing minigrad or the
checks does not load it."""
from __future__ import annotations

import os
import sys


def _unshadow() -> None:
    """`python -m` puts the current folder first on sys.path: run from the folder that holds a
    clone named `minigrad`, `import minigrad` would find the clone's folder (a namespace
    package), not the package. Such entries go, before anything here imports minigrad."""
    for entry in list(sys.path):
        base = os.path.abspath(entry or os.curdir)
        if any(os.path.isdir(os.path.join(base, name)) and
               not os.path.isfile(os.path.join(base, name, "__init__.py"))
               for name in ("minigrad", "minigrad_course")):
            sys.path.remove(entry)


_unshadow()

from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

from ..checks._exercise import FAILED, NOT_ATTEMPTED, PASSED  # noqa: E402
from .judge import Limits, judge_notebook, modules_of  # noqa: E402
from .plan import (Unreadable, find_reference, load, make_plan, not_of_this_course,  # noqa: E402
                   read)
from .sandbox import Sandbox  # noqa: E402
from .worker import MEMORY_MB, Session, packages, write_library  # noqa: E402

__all__ = ["ExerciseResult", "Grader", "NotebookGrade", "Unreadable", "grade_notebook",
           "grade_this_notebook"]

NOTEBOOK_TIMEOUT = 300.0  # seconds a whole notebook may take, by default


@dataclass
class ExerciseResult:
    exercise: str
    status: str
    message: str = ""
    points: float = 1.0


@dataclass
class NotebookGrade:
    path: Path
    reference: Path | None
    results: list[ExerciseResult]

    @property
    def passed(self) -> int:
        return sum(result.status == PASSED for result in self.results)


class Grader:
    """What a grading run shares: the sandbox, and the course's packages written once where
    workers may read them (each worker gets its own copy when it runs as the grader's user)."""

    def __init__(self, mode: str | None = None) -> None:
        """`mode`: the sandbox's (none, uid, namespaces), by default chosen as sandbox says."""
        import tempfile

        packages()  # a namespace package posing as minigrad stops the run here, in one line
        self.sandbox = Sandbox(Path(__file__).with_name("sandbox.py"), mode)
        self.folder = tempfile.TemporaryDirectory(prefix="minigrad-grade-lib-")
        Path(self.folder.name).chmod(0o755)
        self.library = write_library(Path(self.folder.name) / "lib")

    def close(self) -> None:
        self.folder.cleanup()


_GRADER: list[Grader] = []


def grader() -> Grader:
    """The grader of this process, made on first use."""
    if not _GRADER:
        _GRADER.append(Grader())
    return _GRADER[0]


def grade_notebook(path: Path, solutions: Path | None = None, timeout: float = 30.0,
                   notebook_timeout: float = NOTEBOOK_TIMEOUT, data: bytes | None = None,
                   memory: float = MEMORY_MB, reference: tuple[Path, dict] | None = None,
                   shown: dict[int, list] | None = None, using: Grader | None = None
                   ) -> NotebookGrade:
    """Run the learner's notebook at `path` (or its bytes, `data`, read earlier) and judge each
    exercise. `reference` is its solutions notebook, read earlier (else found now). `shown`:
    see judge_notebook (the tests compare a solution's stored outputs with it). `using`: the
    Grader (sandbox, library) to run it with, by default this process's. Raises Unreadable."""
    data = read(path) if data is None else data
    learner = load(path, data)
    if reference is None:
        reference_path = find_reference(path, learner, solutions)
        if reference_path is None and solutions is not None:
            raise not_of_this_course(path, learner, solutions)
        reference = (reference_path, load(reference_path) if reference_path else learner)
    reference_path, reference_notebook = reference
    plan = make_plan(learner, reference_notebook if reference_path else learner)
    if not plan.exercises:
        raise Unreadable(f"{path}: no exercise of this course in it (no answer cell with "
                         "nbgrader metadata): a notebook from another course?")
    limits = Limits(timeout, notebook_timeout)
    run = using or grader()
    session = Session(run.sandbox, run.library, (path.name, data), modules_of(plan), timeout,
                      notebook_timeout, memory)
    try:
        verdicts = judge_notebook(plan, session, limits, shown)
    finally:
        session.close()
    results = []
    for exercise in plan.exercises:
        if exercise in plan.missing_answers:
            status, message = NOT_ATTEMPTED, "its answer cell is missing from the notebook"
        else:
            status, message = verdicts.get(exercise, (FAILED, "it was not judged"))
        results.append(ExerciseResult(exercise, status, message, plan.points.get(exercise, 1)))
    return NotebookGrade(path, reference_path, results)


# Last: the grading cell at the end of each exercise notebook uses the names above.
from .this_notebook import grade_this_notebook  # noqa: E402
