"""The last cell of every exercise notebook:

    from minigrad_course.grade import grade_this_notebook
    grade_this_notebook("ex03_accumulation.ipynb")

grades the notebook's file as saved, in a fresh kernel, exactly as
`python -m minigrad_course.grade ex03_accumulation.ipynb` does, and prints the report under the
cell.
The name is looked up in the kernel's working folder, which Jupyter sets to the notebook's.

The grader reads the file, not the open notebook: JupyterLab saves on Ctrl+S, and by itself only
every two minutes. So the report says to save first, and warns when a cell ran since the last
save with code the file does not hold (an answer typed and run, not saved).

In a grading kernel the cell does nothing but say so: the grader's own kernel has
MINIGRAD_GRADING set, nbgrader's autograde and validate set NBGRADER_EXECUTION. Grading there
would start a kernel per kernel, the same notebook graded again inside its own grading."""
from __future__ import annotations

import os
from pathlib import Path

from ..checks import _notebook, markers
from . import NotebookGrade, Unreadable, grade_notebook
from ..checks._notebook import GRADING_ENV
from .plan import load
from .report import exercise_lines

NBGRADER_ENV = "NBGRADER_EXECUTION"  # "autograde" or "validate" while nbgrader runs a notebook
SKIPPED = "Not graded here: this cell does nothing while the notebook is being graded."
UNSAVED = ("⚠ Not saved: you ran code that the saved file does not have yet. Press Ctrl+S, "
           "then run this cell again.")


def grade_this_notebook(name: str, timeout: float = 30.0) -> None:
    """Print the grade of the notebook file `name` (in the working folder), as saved."""
    if os.environ.get(GRADING_ENV) or os.environ.get(NBGRADER_ENV):
        print(SKIPPED)
        return
    path = Path(name)
    try:
        unsaved = ran_since_saved(path, load(path))
        grade = grade_notebook(path, timeout=timeout)
    except Unreadable as error:
        print(f"Cannot grade it: {error}")
        return
    except Exception as error:  # noqa: BLE001 - one line under the cell, not a traceback
        print(f"Cannot grade it: the grader failed ({type(error).__name__}: {error})")
        return
    print(report(path, grade, bool(unsaved)))


def report(path: Path, grade: NotebookGrade, unsaved: bool = False) -> str:
    """What the grading cell prints (a solution stores it: tests/grading/test_solutions.py)."""
    lines = [UNSAVED] if unsaved else []
    lines.append(f"{path.name} as last saved (press Ctrl+S before this cell), graded in a "
                 "fresh kernel:")
    if grade.reference is None:
        lines.append("  (checks from the notebook itself: no solutions/ found, hidden tests "
                     "skipped)")
    return "\n".join(lines + exercise_lines(grade))


def ran_since_saved(path: Path, notebook: dict) -> list[str]:
    """The code of cells that ran after the file was last saved and that the file does not
    hold (empty outside IPython, where nothing notes when cells run)."""
    saved_at = path.stat().st_mtime
    in_file = {markers.source_of(cell).strip() for cell in notebook["cells"]
               if cell.get("cell_type") == "code"}
    return [source for source, ran_at in _notebook.last_run.items()
            if ran_at > saved_at and source.strip() not in in_file]
