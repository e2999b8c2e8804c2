"""Where the course is: the folder holding solutions/ (the worked exercise notebooks) and
exercises/ (the learners' copies, generated from them). The tools look for it from the current
folder upwards, as git looks for its repository, or are told with an argument. They never guess
it from where this package lives: an installed copy has no course around it."""
from __future__ import annotations

from pathlib import Path

SOLUTIONS, EXERCISES = "solutions", "exercises"


class CourseNotFound(Exception):
    """No course folder here (the message is one line)."""


def find_course(start: Path | None = None) -> Path:
    """The nearest folder, `start` (default: the current one) or above it, whose solutions/
    holds notebooks. Raises CourseNotFound."""
    start = (start or Path.cwd()).resolve()
    for folder in (start, *start.parents):
        if any((folder / SOLUTIONS).glob("*.ipynb")):
            return folder
    raise CourseNotFound(f"no course here: neither {start} nor a folder above it has a "
                         f"{SOLUTIONS}/ folder of notebooks; run this in the course's folder, "
                         "or name it with --course")
