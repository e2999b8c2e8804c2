"""What to run when grading a learner's notebook, and in what order.

The learner contributes the code of their answer cells (found by grade_id) and any cell they
added; everything else (read-only cells, checks with their hidden tests) comes from the
reference, the solutions notebook of the same name, in the reference's order. So a deleted,
edited or moved read-only or check cell changes nothing, and a moved answer still runs after
the cells it depends on. Without a reference, the learner's notebook serves as its own."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..checks import markers
from ..course import SOLUTIONS, CourseNotFound, find_course


class Unreadable(Exception):
    """The notebook file cannot be graded at all (the message is one line)."""


@dataclass
class Step:
    source: str
    role: str  # "answer", "check" or "code"
    exercise: str | None = None


@dataclass
class Plan:
    steps: list[Step]
    exercises: list[str]  # grade_ids of the answer cells, in the reference's order
    points: dict[str, float] = field(default_factory=dict)
    missing_answers: set[str] = field(default_factory=set)
    missing_checks: set[str] = field(default_factory=set)
    reference: Path | None = None


def load(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Unreadable(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise Unreadable(f"{path}: cannot be read ({error})") from None
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        raise Unreadable(f"{path}: not a notebook, the file is not valid JSON ({error}); "
                         "restore it with git, or copy it again from exercises/") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list) or \
            not all(isinstance(cell, dict) for cell in notebook["cells"]):
        raise Unreadable(f"{path}: valid JSON, but not a notebook (no list of cells)")
    return notebook


def find_reference(path: Path, solutions: Path | None) -> Path | None:
    """solutions/<same name>: in --solutions when given; else beside the notebook's folder (as
    exercises/ and solutions/ are), else in the course around the current folder, so that a
    copy of an exercise notebook anywhere is graded with the same checks. None when there is
    no such notebook (an installed copy, a student's folder): the notebook is its own
    reference, hidden tests aside."""
    if solutions is not None:
        folders = [solutions]
    else:
        folders = [path.resolve().parent.parent / SOLUTIONS]
        try:
            folders.append(find_course() / SOLUTIONS)
        except CourseNotFound:
            pass
    for folder in folders:
        candidate = folder / path.name
        if candidate.is_file():
            return candidate
    return None


def _code_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if cell.get("cell_type") == "code"]


def make_plan(learner: dict, reference: dict) -> Plan:
    reference_cells = _code_cells(reference)
    known = {markers.grade_id(cell) for cell in reference_cells} - {None}
    answer_ids = {markers.grade_id(cell) for cell in reference_cells if markers.is_answer(cell)}
    answers: dict[str, str] = {}
    added: dict[str | None, list[str]] = {}  # learner's own cells, by the known cell before them
    anchor = None
    for cell in _code_cells(learner):
        # Some editors drop cell metadata but keep cell ids, which the exercises set equal to
        # the grade_ids.
        cell_id = markers.grade_id(cell) or cell.get("id")
        if cell_id in known:
            anchor = cell_id
            if cell_id in answer_ids:
                answers[cell_id] = markers.source_of(cell)  # with duplicates, the last wins
        elif not markers.nbgrader(cell):  # a copy of a known cell (pasted) is not run twice
            added.setdefault(anchor, []).append(markers.source_of(cell))

    plan = Plan(steps=[Step(s, "code") for s in added.get(None, [])], exercises=[])
    for cell in reference_cells:
        cell_id = markers.grade_id(cell)
        if markers.is_answer(cell):
            plan.exercises.append(cell_id)
            if cell_id in answers:
                plan.steps.append(Step(answers[cell_id], "answer", cell_id))
            else:
                plan.missing_answers.add(cell_id)
        elif markers.is_check(cell):
            exercise = markers.exercise_of(cell_id)
            plan.points[exercise] = float(markers.nbgrader(cell).get("points", 1))
            if exercise in answers:
                plan.steps.append(Step(markers.source_of(cell), "check", exercise))
        else:
            plan.steps.append(Step(markers.source_of(cell), "code"))
        plan.steps.extend(Step(s, "code") for s in added.get(cell_id, []))
    plan.missing_checks = {e for e in plan.exercises if e not in plan.points}
    return plan
