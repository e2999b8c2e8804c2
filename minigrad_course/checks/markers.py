"""The conventions the exercise notebooks follow (nbgrader's), read by the generator and the
grader, and the lessons' build cells (scripts/notebook_forms.py). Works on notebooks as plain
dicts, so nothing here needs nbformat.

- An answer cell has `metadata.nbgrader.solution = true` and a `grade_id` (say "03-loop"); its
  code between `### BEGIN SOLUTION` and `### END SOLUTION` is the worked answer.
- Its check cell follows it, has `grade = true`, 1 point and the `grade_id` "03-loop-check".
  Code between `### BEGIN HIDDEN TESTS` and `### END HIDDEN TESTS` is kept from learners.
- Every other code cell is read-only (`locked = true`) and has a `grade_id` too, so a grader can
  put it back if a learner deletes it."""
from __future__ import annotations

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
CHECK_SUFFIX = "-check"
PLACEHOLDER = ("# YOUR CODE HERE", "raise NotImplementedError()")
EXPECTED_FAILURE_TAG = "raises-exception"  # nbval lets a cell with this tag raise
NOT_RUN_BY_NBVAL_TAG = "nbval-skip"  # nbval leaves a cell with this tag out
GRADING_CELL_SUFFIX = "-grade-notebook"  # the grade_id of the last cell, grade_this_notebook


class MarkerError(ValueError):
    """A solutions notebook that breaks the conventions; the message names the cell."""


def source_of(cell: dict) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(line for line in source if isinstance(line, str))
    return source if isinstance(source, str) else ""


def nbgrader(cell: dict) -> dict:
    """The cell's nbgrader metadata; {} when it has none, or when it is not a mapping (a
    hand-edited file): such a cell is not one of the course's."""
    metadata = cell.get("metadata", {})
    found = metadata.get("nbgrader", {}) if isinstance(metadata, dict) else {}
    return found if isinstance(found, dict) else {}


def grade_id(cell: dict) -> str | None:
    found = nbgrader(cell).get("grade_id")
    return found if isinstance(found, str) else None


def is_answer(cell: dict) -> bool:
    return cell.get("cell_type") == "code" and bool(nbgrader(cell).get("solution"))


def is_check(cell: dict) -> bool:
    return cell.get("cell_type") == "code" and bool(nbgrader(cell).get("grade")) and \
        not nbgrader(cell).get("solution")


def exercise_of(check_id: str) -> str:
    """The answer cell's grade_id for a check cell's grade_id."""
    return check_id.removesuffix(CHECK_SUFFIX)


def replace_regions(source: str, begin: str, end: str, replacement: tuple[str, ...],
                    where: str) -> str:
    """Replace each `begin`..`end` region (marker lines included) by `replacement`, indented
    like the `begin` line, as nbgrader does."""
    out: list[str] = []
    indent: str | None = None
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped == begin:
            if indent is not None:
                raise MarkerError(f"{where}: {begin!r} inside another {begin!r}")
            indent = line[: len(line) - len(line.lstrip())]
            out.extend(indent + text for text in replacement)
        elif stripped == end:
            if indent is None:
                raise MarkerError(f"{where}: {end!r} without {begin!r}")
            indent = None
        elif indent is None:
            out.append(line)
    if indent is not None:
        raise MarkerError(f"{where}: {begin!r} is never closed by {end!r}")
    return "\n".join(out)


def clear_solution(source: str, where: str) -> str:
    if BEGIN_SOLUTION not in source:
        raise MarkerError(f"{where}: an answer cell needs a {BEGIN_SOLUTION!r} region")
    return replace_regions(source, BEGIN_SOLUTION, END_SOLUTION, PLACEHOLDER, where)


def keep_solution(source: str) -> str:
    """The answered source: the worked lines without their marker lines."""
    marker_lines = (BEGIN_SOLUTION, END_SOLUTION)
    return "\n".join(line for line in source.split("\n") if line.strip() not in marker_lines)


def remove_hidden_tests(source: str, where: str) -> str:
    return replace_regions(source, BEGIN_HIDDEN, END_HIDDEN, (), where).rstrip("\n")


def exercises(notebook: dict, where: str) -> list[tuple[int, int]]:
    """(answer index, check index) for each exercise, after checking the conventions."""
    cells = notebook.get("cells", [])
    seen: set[str] = set()
    pairs = []
    for index, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        here = f"{where}, cell {index}"
        cell_id = grade_id(cell)
        if not cell_id:
            raise MarkerError(f"{here}: every code cell needs nbgrader metadata with a grade_id")
        if cell_id in seen:
            raise MarkerError(f"{here}: grade_id {cell_id!r} is used twice")
        seen.add(cell_id)
        if is_check(cell):
            answer = index - 1
            if answer < 0 or not is_answer(cells[answer]) or \
                    grade_id(cells[answer]) != exercise_of(cell_id):
                raise MarkerError(f"{here}: check {cell_id!r} must directly follow the answer "
                                  f"cell {exercise_of(cell_id)!r}")
            pairs.append((answer, index))
        elif is_answer(cell) and (index + 1 >= len(cells) or not is_check(cells[index + 1])):
            raise MarkerError(f"{here}: answer {cell_id!r} needs its check cell right after it")
    return pairs


def tags(cell: dict) -> list[str]:
    metadata = cell.get("metadata", {})
    found = metadata.get("tags", []) if isinstance(metadata, dict) else []
    return [tag for tag in found if isinstance(tag, str)] if isinstance(found, list) else []
