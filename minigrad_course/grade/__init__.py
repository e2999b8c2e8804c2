"""Grade exercise notebooks: `python -m minigrad_course.grade exercises/ex03_accumulation.ipynb`
(or a folder). Each notebook runs in a fresh kernel, one cell at a time, so a broken cell costs only
its own exercise; each exercise is reported passed, failed or not attempted, with its check's
message. See `plan` for which cells run: checks come from the solutions notebook of the same
name, hidden tests included, found with --solutions, in ../solutions beside the notebook's
folder, or in the course around the current folder; without one (an installed copy grading a
student's folder), from the notebook itself, hidden tests aside.

Only `python -m minigrad_course.grade` needs Jupyter's packages (nbformat, nbclient, ipykernel);
importing minigrad or the checks does not load them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .kernel import Outcome, run_cells
from .plan import Plan, Unreadable, find_reference, load, make_plan

__all__ = ["ExerciseResult", "NotebookGrade", "Unreadable", "grade_notebook", "grade_this_notebook"]

PASSED, FAILED, NOT_ATTEMPTED = "passed", "failed", "not attempted"
NOT_RUN = "not run: earlier cells broke the kernel too many times"
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


def grade_notebook(path: Path, solutions: Path | None = None,
                   timeout: float = 30.0) -> NotebookGrade:
    """Run the learner's notebook at `path` and judge each exercise. Raises Unreadable."""
    learner = load(path)
    reference_path = find_reference(path, solutions)
    if reference_path is None and solutions is not None:
        raise Unreadable(f"{path}: not a notebook of this course, {solutions} has no "
                         f"{path.name} (a renamed copy? grade it under its exercise's name)")
    reference = load(reference_path) if reference_path is not None else learner
    plan = make_plan(learner, reference)
    if not plan.exercises:
        raise Unreadable(f"{path}: no exercise of this course in it (no answer cell with "
                         "nbgrader metadata): a notebook from another course?")
    outcomes = run_cells([step.source for step in plan.steps], path.resolve().parent, timeout)
    return NotebookGrade(path, reference_path, _judge(plan, outcomes, timeout))


def _judge(plan: Plan, outcomes: list[Outcome], timeout: float) -> list[ExerciseResult]:
    by_step: dict[tuple[str | None, str], Outcome] = {}
    for step, outcome in zip(plan.steps, outcomes):
        by_step[(step.exercise, step.role)] = outcome
    results = []
    for exercise in plan.exercises:
        status, message = _verdict(exercise, plan, by_step, timeout)
        results.append(ExerciseResult(exercise, status, message, plan.points.get(exercise, 1)))
    return results


def _verdict(exercise: str, plan: Plan, by_step: dict, timeout: float) -> tuple[str, str]:
    if exercise in plan.missing_answers:
        return NOT_ATTEMPTED, "its answer cell is missing from the notebook"
    answer = by_step[(exercise, "answer")]
    if answer.error in UNANSWERED:
        return NOT_ATTEMPTED, ""
    if not answer.ran:
        return FAILED, NOT_RUN
    if answer.timed_out:
        return FAILED, (f"your answer cell ran longer than {timeout:g} s and was stopped "
                        "(an endless loop?)")
    if answer.broke_kernel:
        return FAILED, "your answer cell killed the kernel (it was restarted for the rest)"
    if answer.error:
        return FAILED, f"your answer cell raised {answer.error}: {answer.message}"
    if exercise in plan.missing_checks:
        return FAILED, "its check cell is missing: restore it from exercises/ to be graded"
    check = by_step[(exercise, "check")]
    if check.error in UNANSWERED:
        return NOT_ATTEMPTED, ""
    if not check.ran:
        return FAILED, NOT_RUN
    if check.timed_out:
        return FAILED, (f"the check ran longer than {timeout:g} s and was stopped (does your "
                        "code loop forever?)")
    if check.broke_kernel:
        return FAILED, "the check killed the kernel while running your code"
    if check.error in ("CheckFailed", "AssertionError"):
        return FAILED, check.message
    if check.error:
        return FAILED, f"the check raised {check.error}: {check.message}"
    return PASSED, check.printed.strip()


# Last: the grading cell at the end of each exercise notebook uses the names above.
from .this_notebook import grade_this_notebook  # noqa: E402
