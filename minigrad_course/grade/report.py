"""The report's lines for one notebook, shared by `python -m minigrad_course.grade` and the grading
cell at the end of each exercise notebook: one line per exercise (a failure's message may go on
over more lines, indented), then the total.

Much of a report is the learner's text: messages of their exceptions (even the names of their
exception classes), the names of their files and folders. `printable` shows that text as it is
but for the characters a terminal or an editor acts on instead of showing (line breaks, escape
sequences that move the cursor or rewrite a line, marks that reverse the order of what
follows, bytes that are no UTF-8): those are written as Python escapes, so that no learner's
text can write a line of the report or make one read otherwise."""
from __future__ import annotations

import re

from . import NotebookGrade

STATUS_WIDTH = len("not attempted")
# C0 and C1 controls, the marks that reorder text (bidi), and lone surrogates (the bytes of a
# file name that are no UTF-8, as Python reads them).
_UNSEEN = "\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_HIDDEN = re.compile(f"[{_UNSEEN}\n\u0085\u2028\u2029]")


def printable(text: str) -> str:
    """`text` on one line, with every character that acts instead of showing written as an
    escape (`\\n`, `\\x1b`, `\\u202e`, `\\udce9`)."""
    return _HIDDEN.sub(lambda found: repr(found[0])[1:-1], text)


def exercise_lines(grade: NotebookGrade) -> list[str]:
    width = max((len(result.exercise) for result in grade.results), default=0)
    lines = []
    for result in grade.results:
        message = [printable(line) for line in result.message.splitlines()] or [""]
        lines.append(f"  {result.status:<{STATUS_WIDTH}}  {printable(result.exercise):<{width}}  "
                     f"{message[0]}".rstrip())
        lines += [" " * (STATUS_WIDTH + width + 6) + line for line in message[1:]]
    lines.append(f"  {grade.passed} of {len(grade.results)} exercises passed")
    return lines
