"""The one run of each worked solution in the tests (issue 35: solutions run once). The grader
runs it in a worker, every cell in order, its check cells too, and keeps what each cell showed;
the judge grades it meanwhile. So one run checks both what nbval checks of the lessons and the
exercises (each stored output is what running gives: the checks' success boxes, diagrams,
printed values) and what grading checks (every worked answer passes the judge on inputs it
draws, in a fresh worker that runs the answer and read-only cells the grader runs, and the
grading cell stores the report this grade prints). solutions/ is not among nbval's testpaths;
solutions/lessons/ is. docs/grading.md, "How often the tests run a solution"."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from minigrad_course.checks import markers
from minigrad_course.checks._exercise import PASSED
from minigrad_course.grade import Grader, grade_notebook
from minigrad_course.grade.sandbox import NONE
from minigrad_course.grade.this_notebook import report

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
NAMES = sorted(path.name for path in SOLUTIONS.glob("*.ipynb"))
UNCOMPARED = {"image/png", "image/jpeg"}  # as nbval: bitmaps are not compared
# MiB of address space a worker may map: drawing a diagram (wasmtime) reserves 4 GiB at once,
# past the grader's default, which a worker that draws nothing never needs.
DRAWING_MEMORY = 16 << 10


def text(value: str | list[str]) -> str:
    return "".join(value) if isinstance(value, list) else value


def compared(outputs: list[dict]) -> dict[str, list[str]]:
    """What nbval compares of a cell's outputs: the text of each stream (its pieces joined, in
    the order the streams first appear), and each MIME type's data of the displays, values and
    errors in order; metadata, counts and the order between kinds aside."""
    found: dict[str, list[str]] = defaultdict(list)
    streams: dict[str, str] = {}
    for output in outputs:
        if output["output_type"] == "stream":
            streams[output["name"]] = streams.get(output["name"], "") + text(output["text"])
        elif output["output_type"] == "error":
            found["ename"].append(output["ename"])
            found["evalue"].append(output["evalue"])
        for mime, data in output.get("data", {}).items():
            if mime not in UNCOMPARED:
                found[mime].append(text(data))
    found["text"] = list(streams.values())
    return dict(found)


@pytest.fixture(scope="module")
def uncontained() -> Grader:
    """Workers that run as the tests' user, not contained: a contained worker may start no
    thread, and drawing a diagram (wasmtime) needs some; the solutions are the course's own.
    Containment has its tests: test_grade_sandbox.py, test_grade_hostile.py."""
    made = Grader(NONE)
    yield made
    made.close()


def code_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def test_every_solution_is_found() -> None:
    assert len(NAMES) >= 17, NAMES


@pytest.mark.slow  # a grader's worker per solution
@pytest.mark.parametrize("name", NAMES)
def test_a_solution_shows_what_it_stores_and_passes(name: str, uncontained: Grader) -> None:
    path = SOLUTIONS / name
    notebook = json.loads(path.read_text(encoding="utf-8"))
    shown: dict[int, list] = {}
    grade = grade_notebook(path, solutions=SOLUTIONS, shown=shown,
                           using=uncontained, memory=DRAWING_MEMORY)

    answers = [markers.grade_id(cell) for cell in notebook["cells"] if markers.is_answer(cell)]
    assert {result.exercise: result.status for result in grade.results} == \
        dict.fromkeys(answers, PASSED), report(path, grade)
    *cells, grading = code_cells(notebook)
    assert "grade_this_notebook" in markers.source_of(grading)
    assert compared(grading["outputs"]) == {"text": [report(path, grade) + "\n"]}
    assert sorted(shown) == list(range(len(cells) + 1)), "a cell the grader did not run"
    for place, cell in enumerate(cells):
        assert compared(shown[place]) == compared(cell["outputs"]), \
            f"cell {place} of {name}:\n{markers.source_of(cell)}"
