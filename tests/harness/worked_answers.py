"""A student who did the whole assignment: an exercise notebook (as nbgrader releases it, as a
student fetched it, or as exercises/ stores it) with each answer cell holding the worked answer
from solutions/, less the nbgrader markers a student never sees. Used by the tests of a class
(nbgrader, its exchange, the hub, one machine with OS users)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from minigrad_course.checks import markers

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def worked(notebook: dict, assignment: str) -> dict:
    """A copy of `notebook` answered as solutions/<assignment>.ipynb answers it."""
    solution = json.loads((SOLUTIONS / f"{assignment}.ipynb").read_text(encoding="utf-8"))
    answers = {markers.grade_id(cell): markers.source_of(cell) for cell in solution["cells"]}
    notebook = copy.deepcopy(notebook)
    for cell in notebook["cells"]:
        if markers.is_answer(cell):
            cell["source"] = "\n".join(
                line for line in answers[markers.grade_id(cell)].split("\n")
                if line.strip() not in (markers.BEGIN_SOLUTION, markers.END_SOLUTION))
    return notebook
