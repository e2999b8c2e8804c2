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
import errno
import json
import os
import stat
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
    cell: int | None = None  # its place among the reference's code cells (a learner's: None)


@dataclass
class Plan:
    steps: list[Step]
    exercises: list[str]  # grade_ids of the answer cells, in the reference's order
    points: dict[str, float] = field(default_factory=dict)
    missing_answers: set[str] = field(default_factory=set)
    missing_checks: set[str] = field(default_factory=set)
    reference: Path | None = None
    check_names: dict[str, str] = field(default_factory=dict)  # "check" -> its module


# A class is read into memory before the first notebook is graded: a notebook is refused past
# MAX_FILE (outputs included), or past MAX_CODE of text in its code cells, and kept without its
# outputs (`stripped`), so that no submission can take the grader's memory.
MAX_FILE = 64 << 20
MAX_CODE = 4 << 20
# ...and past MAX_CELLS cells (the course's longest has 60): 500,000 empty cells, 44 MB, kept a
# worker busy until the notebook's timeout, one cell at a time.
MAX_CELLS = 2_000


def read(path: Path, *, links: bool = False) -> bytes:
    """The file's bytes. A student's notebook (`links` False) must be a file of its own: not a
    symbolic link, which the grader (root, often) would follow to what the student cannot read,
    the solutions among them; and never a named pipe or a device, whose reading never ends."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if links else os.O_NOFOLLOW)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise Unreadable(f"{path}: no such file") from None
    except OSError as error:
        if error.errno == errno.ELOOP and not links:
            raise Unreadable(f"{path}: a symbolic link, not a notebook: the grader reads the "
                             "student's own file, never what a link points to") from None
        raise Unreadable(f"{path}: cannot be read ({error.strerror or error})") from None
    with os.fdopen(descriptor, "rb") as stream:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(f"{path}: not a file (a folder, a named pipe or a device)")
        if info.st_size > MAX_FILE:
            raise Unreadable(f"{path}: {info.st_size / (1 << 20):.0f} MB, more than a notebook "
                             f"of this course holds ({MAX_FILE >> 20} MB): clear its outputs "
                             "and save it again")
        try:
            return stream.read(MAX_FILE + 1)
        except OSError as error:
            raise Unreadable(f"{path}: cannot be read ({error.strerror or error})") from None


def stripped(notebook: dict) -> bytes:
    """The notebook as bytes without its code cells' outputs: all that grading reads."""
    cells = [{key: value for key, value in cell.items() if key not in ("outputs", "attachments")}
             for cell in notebook["cells"]]
    return json.dumps({**notebook, "cells": cells}).encode()


def load(path: Path, data: bytes | None = None) -> dict:
    """The notebook at `path` (or in `data`, its bytes read earlier) as a dict, checked to be
    one. Raises Unreadable with a one-line message."""
    data = read(path, links=True) if data is None else data
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
    if isinstance(notebook, dict) and "worksheets" in notebook:
        raise Unreadable(f"{path}: a notebook in the format of Jupyter before 2015 (nbformat "
                         "3): open it in JupyterLab and save it, which converts it")
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise Unreadable(f"{path}: valid JSON, but not a notebook (no list of cells)")
    if len(notebook["cells"]) > MAX_CELLS:
        raise Unreadable(f"{path}: {len(notebook['cells']):,} cells, more than a notebook of "
                         f"this course holds ({MAX_CELLS:,})")
    for index, cell in enumerate(notebook["cells"]):
        problem = _malformed(cell)
        if problem:
            raise Unreadable(f"{path}: cell {index} is malformed ({problem}); restore the "
                             "notebook with git, or copy it again from exercises/")
    code = sum(len(markers.source_of(cell)) for cell in notebook["cells"])
    if code > MAX_CODE:
        raise Unreadable(f"{path}: its cells hold {code / (1 << 20):.0f} MB of text, more than "
                         f"a notebook of this course ({MAX_CODE >> 20} MB)")
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
    """`_reference`, refused (Unreadable) when the notebook is that very file reached by
    another name, through a linked folder or a hard link: a student's folder that leads into
    solutions/ would hand in the solutions."""
    reference = _reference(path, learner, solutions)
    if reference is not None and os.path.abspath(path) != os.path.abspath(reference):
        try:
            same = os.path.samefile(path, reference)
        except OSError:
            same = False
        if same:
            raise Unreadable(f"{path}: the solutions notebook itself, reached through a link: "
                             "the grader reads the student's own file")
    return reference


def _reference(path: Path, learner: dict, solutions: Path | None) -> Path | None:
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


def not_of_this_course(path: Path, learner: dict, solutions: Path) -> Unreadable:
    """Why `path` has no solutions notebook in `solutions`: another course's, or this course's
    from before its exercises were numbered as now (07-which-raise is 08-which-raise today)."""
    unnumbered = {grade_id.split("-", 1)[-1] for cell in _code_cells(learner)
                  if markers.is_answer(cell) and (grade_id := markers.grade_id(cell))}
    overlap = {name: len(unnumbered & {i.split("-", 1)[-1] for i in ids})
               for name, ids in _answer_ids(solutions.resolve()).items()}
    best = max(overlap, key=lambda name: (overlap[name], name), default=None)
    if best is not None and overlap[best]:
        return Unreadable(f"{path}: its exercises are those of {best} in an older version of "
                          "the course, which numbered them otherwise: copy its answers into "
                          f"the current {best}")
    return Unreadable(f"{path}: not a notebook of this course, no notebook in {solutions} has "
                      "its exercises")


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
    for place, cell in enumerate(reference_cells):
        cell_id = markers.grade_id(cell)
        if markers.is_answer(cell):
            plan.exercises.append(cell_id)
            if cell_id in answers:
                plan.steps.append(Step("\n".join(answers[cell_id]), "answer", cell_id,
                                       cell=place))
            else:
                plan.missing_answers.add(cell_id)
        elif markers.is_check(cell):
            exercise = markers.exercise_of(cell_id)
            plan.points[exercise] = float(markers.nbgrader(cell).get("points", 1))
            if exercise in answers:
                source = markers.source_of(cell)
                plan.steps.append(Step(source, "check", exercise,
                                       check_calls(source, plan.check_names), cell=place))
        else:
            plan.steps.append(Step(markers.source_of(cell), "code", cell=place))
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
