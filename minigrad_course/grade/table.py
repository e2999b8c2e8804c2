"""A class's grades as rows, for `--csv` and `--json`, and one summary line per student.

nbgrader keeps each student's work as `submitted/<student>/<assignment>/<notebook>.ipynb` (and
`autograded/` alike): where a notebook's folder is named like its assignment, the folder above it
names the student. Elsewhere (a learner's own exercises/) the student is left empty.

One row per exercise: student, assignment, exercise, score, max_score, status, message, notebook.
A notebook that could not be graded gets one row with no exercise, a score of 0 and the error
as its message, so that a spreadsheet of the class has every student in it.

Student, notebook and message are the learner's text in part (a folder named
`=HYPERLINK(...)`, an exception's message): in the CSV, a cell a spreadsheet would read as a
formula starts with a quote, and the characters a terminal acts on are escapes (see
`report.printable`); the JSON keeps every text as it is, for scripts."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from . import PASSED, NotebookGrade, Unreadable
from .report import printable

FIELDS = ("student", "assignment", "exercise", "score", "max_score", "status", "message",
          "notebook")
ERROR = "error"  # the status of a notebook's row when it could not be graded


@dataclass
class Row:
    student: str
    assignment: str
    exercise: str
    score: float
    max_score: float
    status: str
    message: str
    notebook: str


def student_of(path: Path, assignment: str) -> str:
    """nbgrader's student id, from .../<student>/<assignment>/<notebook>; else ""."""
    folder = path.parent
    return folder.parent.name if folder.name == assignment and folder.parent.name else ""


def rows(path: Path, grade: NotebookGrade | Unreadable) -> list[Row]:
    if isinstance(grade, Unreadable):
        message = " ".join(str(grade).split())
        return [Row(student_of(path, path.stem), path.stem, "", 0, 0, ERROR, message,
                    str(path))]
    # A renamed copy (ex03_accumulation-Copy1) is graded as the assignment it was matched to.
    assignment = grade.reference.stem if grade.reference is not None else path.stem
    student = student_of(path, assignment)
    return [Row(student, assignment, result.exercise,
                result.points if result.status == PASSED else 0, result.points,
                result.status, result.message, str(path))
            for result in grade.results]


def as_csv(table: list[Row]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in table:
        writer.writerow({key: _cell(_number(value), key == "message")
                         for key, value in asdict(row).items()})
    return out.getvalue()


def as_json(table: list[Row]) -> str:
    return json.dumps([{key: _number(value) for key, value in asdict(row).items()}
                       for row in table], indent=1, ensure_ascii=False) + "\n"


def _cell(value: object, lines: bool = False) -> object:
    """A CSV cell no spreadsheet runs: text as `printable` shows it (a message keeps its lines)
    and a quote before what would start a formula (=, +, -, @)."""
    if not isinstance(value, str):
        return value
    text = "\n".join(map(printable, value.split("\n"))) if lines else printable(value)
    return "'" + text if text.startswith(("=", "+", "-", "@")) else text


def _number(value: object) -> object:
    """1.0 as 1: points are whole numbers in this course, and a spreadsheet shows them so."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def summary_lines(table: list[Row]) -> list[str]:
    """One line per student, in the order they first appear: their score out of the maximum,
    and per assignment what happened."""
    students: dict[str, list[Row]] = {}
    for row in table:
        if row.student:
            students.setdefault(row.student, []).append(row)
    lines = []
    for student, their_rows in students.items():
        assignments: dict[str, list[Row]] = {}
        for row in their_rows:
            assignments.setdefault(row.assignment, []).append(row)
        parts = []
        for assignment, rows_of_one in assignments.items():
            if any(row.status == ERROR for row in rows_of_one):
                parts.append(f"{assignment} could not be graded")
                continue
            counts = {status: sum(row.status == status for row in rows_of_one)
                      for status in dict.fromkeys(row.status for row in rows_of_one)}
            detail = ", ".join(f"{n} {status}" for status, n in counts.items())
            parts.append(f"{assignment} {_number(sum(r.score for r in rows_of_one))}/"
                         f"{_number(sum(r.max_score for r in rows_of_one))} ({detail})")
        score = _number(sum(row.score for row in their_rows))
        most = _number(sum(row.max_score for row in their_rows))
        lines.append(f"student {printable(student)}: {score} of {most} points; " +
                     printable("; ".join(parts)))
    return lines
