"""What to run when grading a learner's notebook, and in what order.

The learner contributes the code of their answer cells (found by grade_id) and any cell they
added; everything else (read-only cells, checks with their hidden tests) comes from the
reference, the solutions notebook of the same name (or, for a renamed copy, the one with its
exercises' grade_ids), in the reference's order. So a deleted, edited or moved read-only or
check cell changes nothing, and a moved answer still runs after the cells it depends on. An
answer split in two (JupyterLab's split copies the cell's metadata) runs as one, its parts in
order. Without a reference, the learner's notebook serves as its own.

For each check cell the plan also lists the check calls it makes (`check.walk(reachable_nodes)`,
hidden tests included): which check of which module, with which of the learner's names and
which constant options. The judge runs those checks itself; the cell's text never runs."""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..checks import markers
from ..course import SOLUTIONS, CourseNotFound, find_course


class Unreadable(Exception):
    """The notebook file cannot be graded at all (the message is one line)."""


CHECK_PACKAGE = "minigrad_course.checks"


@dataclass
class CheckCall:
    module: str  # "minigrad_course.checks.accumulation"
    check: str  # "micro_batches"
    names: tuple[str, ...]  # the learner's names it is given: ("accumulate_gradient",)
    options: dict  # constant keyword arguments: {"lr": 0.5}


@dataclass
class Step:
    source: str
    role: str  # "answer", "check" or "code"
    exercise: str | None = None
    calls: list[CheckCall] = field(default_factory=list)  # for a check: the checks it calls
    learner: bool = False  # a cell the learner added


@dataclass
class Plan:
    steps: list[Step]
    exercises: list[str]  # grade_ids of the answer cells, in the reference's order
    points: dict[str, float] = field(default_factory=dict)
    missing_answers: set[str] = field(default_factory=set)
    missing_checks: set[str] = field(default_factory=set)
    reference: Path | None = None
    check_names: dict[str, str] = field(default_factory=dict)  # "check" -> its module


def read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise Unreadable(f"{path}: no such file") from None
    except OSError as error:
        raise Unreadable(f"{path}: cannot be read ({error.strerror or error})") from None


def load(path: Path, data: bytes | None = None) -> dict:
    """The notebook at `path` (or in `data`, its bytes read earlier) as a dict, checked to be
    one. Raises Unreadable with a one-line message."""
    data = read(path) if data is None else data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable(f"{path}: cannot be read (not UTF-8 text)") from None
    try:
        notebook = json.loads(text)
    except RecursionError:
        raise Unreadable(f"{path}: not a notebook, the JSON nests too deep") from None
    except json.JSONDecodeError as error:
        raise Unreadable(f"{path}: not a notebook, the file is not valid JSON ({error.msg}, "
                         f"line {error.lineno}); "
                         "restore it with git, or copy it again from exercises/") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise Unreadable(f"{path}: valid JSON, but not a notebook (no list of cells)")
    for index, cell in enumerate(notebook["cells"]):
        problem = _malformed(cell)
        if problem:
            raise Unreadable(f"{path}: cell {index} is malformed ({problem}); restore the "
                             "notebook with git, or copy it again from exercises/")
    return notebook


def _malformed(cell: object) -> str:
    """What makes `cell` something no editor writes, or "" for a well-formed cell."""
    if not isinstance(cell, dict):
        return "not a mapping"
    if not isinstance(cell.get("cell_type", ""), str):
        return "its cell_type is not text"
    if not isinstance(cell.get("metadata", {}), dict):
        return "its metadata is not a mapping"
    if not isinstance(cell.get("metadata", {}).get("nbgrader", {}), dict):
        return "its metadata.nbgrader is not a mapping"
    source = cell.get("source", "")
    if not isinstance(source, str) and not (isinstance(source, list) and
                                            all(isinstance(line, str) for line in source)):
        return "its source is not text"
    if not isinstance(cell.get("id", ""), str):
        return "its id is not text"
    return ""


def find_reference(path: Path, learner: dict, solutions: Path | None) -> Path | None:
    """solutions/<same name>: in --solutions when given; else beside the notebook's folder (as
    exercises/ and solutions/ are), else in the course around the current folder, so that a
    copy of an exercise notebook anywhere is graded with the same checks. A renamed copy
    ("ex03_accumulation-Copy1.ipynb") is matched by its answer cells' grade_ids instead. None
    when there is no such notebook (an installed copy, a student's folder): the notebook is
    its own reference, hidden tests aside."""
    if solutions is not None:
        folders = [solutions]
    else:
        folders = [path.resolve().parent.parent / SOLUTIONS]
        try:
            folders.append(find_course() / SOLUTIONS)
        except CourseNotFound:
            pass
    folders = [folder for folder in folders if folder.is_dir()]
    for folder in folders:
        candidate = folder / path.name
        if candidate.is_file():
            return candidate
    mine = {markers.grade_id(cell) or cell.get("id") for cell in _code_cells(learner)}
    for folder in folders:
        overlap = {name: len(mine & ids) for name, ids in _answer_ids(folder.resolve()).items()}
        best = max(overlap, key=lambda name: (overlap[name], name), default=None)
        if best is not None and overlap[best]:
            return folder / best
    return None


_ANSWER_IDS: dict[Path, dict[str, set[str]]] = {}  # solutions folder -> notebook -> answer ids


def _answer_ids(folder: Path) -> dict[str, set[str]]:
    if folder not in _ANSWER_IDS:
        found = {}
        for candidate in sorted(folder.glob("*.ipynb")):
            try:
                notebook = load(candidate)
            except Unreadable:
                continue
            found[candidate.name] = {markers.grade_id(cell) for cell in _code_cells(notebook)
                                     if markers.is_answer(cell)} - {None}
        _ANSWER_IDS[folder] = found
    return _ANSWER_IDS[folder]


def _code_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if cell.get("cell_type") == "code"]


def make_plan(learner: dict, reference: dict) -> Plan:
    reference_cells = _code_cells(reference)
    known = {markers.grade_id(cell) for cell in reference_cells} - {None}
    answer_ids = {markers.grade_id(cell) for cell in reference_cells if markers.is_answer(cell)}
    answers: dict[str, list[str]] = {}
    added: dict[str | None, list[str]] = {}  # learner's own cells, by the known cell before them
    anchor = None
    for cell in _code_cells(learner):
        # Some editors drop cell metadata but keep cell ids, which the exercises set equal to
        # the grade_ids.
        cell_id = markers.grade_id(cell) or cell.get("id")
        if cell_id in known:
            anchor = cell_id
            if cell_id in answer_ids:  # both halves of a split answer, in order
                answers.setdefault(cell_id, []).append(markers.source_of(cell))
        elif not markers.nbgrader(cell):  # a copy of a known cell (pasted) is not run twice
            added.setdefault(anchor, []).append(markers.source_of(cell))

    plan = Plan(steps=[Step(s, "code", learner=True) for s in added.get(None, [])], exercises=[],
                check_names=check_bindings(reference_cells))
    for cell in reference_cells:
        cell_id = markers.grade_id(cell)
        if markers.is_answer(cell):
            plan.exercises.append(cell_id)
            if cell_id in answers:
                plan.steps.append(Step("\n".join(answers[cell_id]), "answer", cell_id))
            else:
                plan.missing_answers.add(cell_id)
        elif markers.is_check(cell):
            exercise = markers.exercise_of(cell_id)
            plan.points[exercise] = float(markers.nbgrader(cell).get("points", 1))
            if exercise in answers:
                source = markers.source_of(cell)
                plan.steps.append(Step(source, "check", exercise,
                                       check_calls(source, plan.check_names)))
        else:
            plan.steps.append(Step(markers.source_of(cell), "code"))
        plan.steps.extend(Step(s, "code", learner=True) for s in added.get(cell_id, []))
    plan.missing_checks = {e for e in plan.exercises if e not in plan.points}
    return plan


def check_bindings(cells: list[dict]) -> dict[str, str]:
    """The names the read-only cells bind to check modules: {"check": "...accumulation"}."""
    names = {}
    for cell in cells:
        if markers.is_answer(cell) or markers.is_check(cell):
            continue
        try:
            tree = ast.parse(markers.source_of(cell))
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == CHECK_PACKAGE:
                names.update({alias.asname or alias.name: f"{CHECK_PACKAGE}.{alias.name}"
                              for alias in node.names})
            elif isinstance(node, ast.Import):
                names.update({alias.asname: alias.name for alias in node.names
                              if alias.asname and alias.name.startswith(CHECK_PACKAGE + ".")})
    return names


def check_calls(source: str, check_names: dict[str, str]) -> list[CheckCall]:
    """The check calls of a check cell, in order: `check.loop(after_loop)` statements (in the
    hidden tests too), with the names they pass and their constant keyword arguments."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    calls = []
    for node in tree.body:
        call = node.value if isinstance(node, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and
                isinstance(call.func.value, ast.Name) and call.func.value.id in check_names):
            continue
        names = tuple(arg.id for arg in call.args if isinstance(arg, ast.Name))
        options = {keyword.arg: keyword.value.value for keyword in call.keywords
                   if keyword.arg and isinstance(keyword.value, ast.Constant)}
        calls.append(CheckCall(check_names[call.func.value.id], call.func.attr, names, options))
    return calls
