"""Grade exercise notebooks: `python -m minigrad_course.grade exercises/ex03_accumulation.ipynb`
(or a folder). Each notebook runs in a fresh kernel of its own (see `kernel`), one cell at a
time, so a broken cell costs only its own exercise; each exercise is reported passed, failed or
not attempted, with its check's message. See `plan` for which cells run: checks come from the
solutions notebook of the same name (or with the same exercises), hidden tests included, found
with --solutions, in ../solutions beside the notebook's folder, or in the course around the
current folder; without one (an installed copy grading a student's folder), from the notebook
itself, hidden tests aside.

A check passes only when its cell ran without an error (whatever the cell printed) and the
kernel's signed count shows that each check call in it reported success (see `runner`).

Only `python -m minigrad_course.grade` needs IPython; importing minigrad or the checks does not
load it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .kernel import MEMORY_MB, Cell, Outcome, run_cells
from .plan import Plan, Step, Unreadable, find_reference, load, make_plan, read

__all__ = ["ExerciseResult", "NotebookGrade", "Unreadable", "grade_notebook", "grade_this_notebook"]

PASSED, FAILED, NOT_ATTEMPTED = "passed", "failed", "not attempted"
NOT_RUN = "not run: earlier cells broke the kernel too many times"
NOTEBOOK_TIMEOUT = 300.0  # seconds a whole notebook may take, by default
# nbgrader's placeholder raises NotImplementedError; a check raises NotAnswered (a subclass) for
# an unfinished function or a bug left as the read-only cell wrote it.
UNANSWERED = ("NotImplementedError", "NotAnswered")


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


def grade_notebook(path: Path, solutions: Path | None = None, timeout: float = 30.0,
                   notebook_timeout: float = NOTEBOOK_TIMEOUT, data: bytes | None = None,
                   memory: float = MEMORY_MB) -> NotebookGrade:
    """Run the learner's notebook at `path` (or its bytes, `data`, read earlier) and judge each
    exercise. Raises Unreadable."""
    data = read(path) if data is None else data
    learner = load(path, data)
    reference_path = find_reference(path, learner, solutions)
    if reference_path is None and solutions is not None:
        raise Unreadable(f"{path}: not a notebook of this course, no notebook in {solutions} "
                         "has its exercises")
    reference = load(reference_path) if reference_path is not None else learner
    plan = make_plan(learner, reference)
    if not plan.exercises:
        raise Unreadable(f"{path}: no exercise of this course in it (no answer cell with "
                         "nbgrader metadata): a notebook from another course?")
    cells = [Cell(step.source, plan.check_names if step.role == "check" else None)
             for step in plan.steps]
    outcomes = run_cells(cells, (path.name, data), timeout, notebook_timeout, memory)
    limits = Limits(timeout, notebook_timeout)
    return NotebookGrade(path, reference_path, _judge(plan, outcomes, limits))


@dataclass
class Limits:
    cell: float
    notebook: float

    def stopped(self, outcome: Outcome, what: str) -> str:
        if outcome.out_of_time:
            return (f"{what} was stopped: the whole notebook may run {self.notebook:g} s, "
                    "and had used it up")
        return f"{what} ran longer than {self.cell:g} s and was stopped"


def _judge(plan: Plan, outcomes: list[Outcome], limits: Limits) -> list[ExerciseResult]:
    by_step: dict[tuple[str | None, str], tuple[Step, Outcome]] = {}
    for step, outcome in zip(plan.steps, outcomes):
        by_step[(step.exercise, step.role)] = (step, outcome)
    results = []
    for exercise in plan.exercises:
        status, message = _verdict(exercise, plan, by_step, limits)
        results.append(ExerciseResult(exercise, status, message, plan.points.get(exercise, 1)))
    return results


def _not_run(outcome: Outcome, limits: Limits) -> str:
    if outcome.out_of_time:
        return f"not run: the notebook used up its {limits.notebook:g} s"
    return NOT_RUN


def _verdict(exercise: str, plan: Plan, by_step: dict, limits: Limits) -> tuple[str, str]:
    if exercise in plan.missing_answers:
        return NOT_ATTEMPTED, "its answer cell is missing from the notebook"
    _, answer = by_step[(exercise, "answer")]
    if answer.error in UNANSWERED:
        return NOT_ATTEMPTED, ""
    if not answer.ran:
        return FAILED, _not_run(answer, limits)
    if answer.timed_out:
        return FAILED, limits.stopped(answer, "your answer cell") + " (an endless loop?)"
    if answer.exited:
        return FAILED, "your answer cell called exit() (the kernel was restarted for the rest)"
    if answer.broke_kernel:
        return FAILED, "your answer cell killed the kernel (it was restarted for the rest)"
    if answer.error:
        return FAILED, f"your answer cell raised {answer.error}: {answer.message}"
    if exercise in plan.missing_checks:
        return FAILED, "its check cell is missing: restore it from exercises/ to be graded"
    step, check = by_step[(exercise, "check")]
    if check.error in UNANSWERED:
        return NOT_ATTEMPTED, ""
    if not check.ran:
        return FAILED, _not_run(check, limits)
    if check.timed_out:
        return FAILED, limits.stopped(check, "the check") + " (does your code loop forever?)"
    if check.exited:
        return FAILED, "your code called exit() while the check ran"
    if check.broke_kernel:
        return FAILED, "the check killed the kernel while running your code"
    if check.error == "Tampered":
        return FAILED, (f"tampered with: {check.message}, which the checks rely on; no "
                        "verdict can be trusted")
    if check.error in ("CheckFailed", "AssertionError"):
        return FAILED, check.message
    if check.error:
        return FAILED, f"the check raised {check.error}: {check.message}"
    if not check.successes:  # a check cell reports at least one verdict: every one calls a check
        return FAILED, ("the check did not report a verdict: something in the notebook "
                        "changed how cells run, or replaced the check")
    if len(check.successes) < step.calls:
        return FAILED, (f"only {len(check.successes)} of the cell's {step.calls} checks "
                        "reported a verdict: something in the notebook stopped the others")
    return PASSED, "\n".join(f"✓ {line}" for line in check.successes)


# Last: the grading cell at the end of each exercise notebook uses the names above.
from .this_notebook import grade_this_notebook  # noqa: E402
