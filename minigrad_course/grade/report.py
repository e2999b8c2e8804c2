"""The report's lines for one notebook, shared by `python -m minigrad_course.grade` and the grading
cell at the end of each exercise notebook: one line per exercise (a failure's message may go on
over more lines, indented), then the total."""
from __future__ import annotations

from . import NotebookGrade

STATUS_WIDTH = len("not attempted")


def exercise_lines(grade: NotebookGrade) -> list[str]:
    width = max((len(result.exercise) for result in grade.results), default=0)
    lines = []
    for result in grade.results:
        message = result.message.splitlines() or [""]
        lines.append(f"  {result.status:<{STATUS_WIDTH}}  {result.exercise:<{width}}  "
                     f"{message[0]}".rstrip())
        lines += [" " * (STATUS_WIDTH + width + 6) + line for line in message[1:]]
    lines.append(f"  {grade.passed} of {len(grade.results)} exercises passed")
    return lines
