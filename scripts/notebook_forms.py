"""What each course source becomes, before it runs (scripts/build_notebooks.py runs and stores it).

A lesson, course/NN_name.py, has two forms:
- the learner's (notebooks/NN_name.ipynb): each `build` cell holds the placeholder where the
  worked lines were, followed by the worked answer as a closed `<details>` in markdown, which
  does not run; a prediction's answer is stored collapsed;
- the answered one (solutions/lessons/NN_name.ipynb, only for a lesson with builds): each build
  holds its worked lines, so everything after it runs on them.
An exercise notebook, course/exercises/exNN_name.py, becomes the instructor's notebook
(solutions/exNN_name.ipynb) with nbgrader's metadata, and the learner's copy is generated from
that (minigrad_course.generate). docs/authoring.md describes both kinds of source."""
from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

import jupytext
import nbformat

from minigrad_course.checks import markers
from notebook_run import set_stored_metadata

KEPT_CELL_METADATA = ("tags",)  # everything else is set here
# A prediction: a markdown cell that hides its answer in "<details><summary>... Click to reveal".
PREDICTION = re.compile(r"<details>\s*<summary>.*?Click\s+to\s+reveal", re.DOTALL)
HIDE_OUTPUT_TAG = "hide-output"  # a cell whose output is stored collapsed, prediction or not
# Code the learner writes: the worked lines between markers.BEGIN_SOLUTION and END_SOLUTION.
BUILD_TAG = "build"
WORKED_ANSWER_TAG = "worked-answer"  # the learner's form: the build's answer, to open
BUILDS_EXTENSION = "%load_ext minigrad_course.builds"  # what runs a lesson's stubs (builds.py)
WORKED_ANSWER = ("<details><summary>A worked answer (open it once yours runs)</summary>\n\n"
                 "```python\n{}\n```\n\n</details>")
# The end of every exercise notebook: grading the saved file.
GRADE_SECTION = (
    ("## Grade this notebook\n\nSave first (Ctrl+S): the cell below grades the saved file in a "
     "fresh kernel, as `python -m minigrad_course.grade` does: with the hidden tests when the "
     "course's `solutions/` is at hand, and the report says so when it is not."),
    'from minigrad_course.grade import grade_this_notebook\ngrade_this_notebook("{}.ipynb")')


class SourceError(ValueError):
    """A source that breaks the conventions; the message names the file and the cell."""


def read(source: Path) -> nbformat.NotebookNode:
    return jupytext.read(source, fmt="py:percent")


# ---- lessons

def lesson_forms(source: Path) -> tuple[nbformat.NotebookNode, nbformat.NotebookNode | None]:
    """(the learner's form, the answered form or None for a lesson without builds), not run."""
    notebook = read(source)
    builds = [i for i, cell in enumerate(notebook.cells) if is_build(cell)]
    check_lesson(notebook, builds, source.name)
    learner = copy.deepcopy(notebook)
    for index in reversed(builds):
        cell = learner.cells[index]
        worked = markers.keep_solution(cell.source)
        cell.source = markers.clear_solution(cell.source, f"{source.name}, cell {index}")
        reveal = nbformat.v4.new_markdown_cell(WORKED_ANSWER.format(worked))
        reveal.metadata["tags"] = [WORKED_ANSWER_TAG]
        learner.cells.insert(index + 1, reveal)
    if not builds:
        return finish(learner, source), None
    for index in builds:
        notebook.cells[index].source = markers.keep_solution(notebook.cells[index].source)
    return finish(learner, source), finish(notebook, source)


def is_build(cell: nbformat.NotebookNode) -> bool:
    return cell.cell_type == "code" and BUILD_TAG in cell.metadata.get("tags", [])


def check_lesson(notebook: nbformat.NotebookNode, builds: list[int], name: str) -> None:
    for index, cell in enumerate(notebook.cells):
        where = f"{name}, cell {index}"
        if "answer" in cell.metadata.get("tags", []):
            raise SourceError(f"{where}: the `answer` tag ran the worked answer for the learner; "
                              f"tag it {BUILD_TAG!r} and mark its worked lines "
                              f"{markers.BEGIN_SOLUTION!r} ... {markers.END_SOLUTION!r}")
        if markers.BEGIN_SOLUTION in cell.source and index not in builds:
            raise SourceError(f"{where}: worked lines outside a cell tagged {BUILD_TAG!r}")
    if builds:
        loads = [i for i, cell in enumerate(notebook.cells)
                 if cell.cell_type == "code" and BUILDS_EXTENSION in cell.source.splitlines()]
        if not loads or loads[0] >= builds[0]:
            raise SourceError(f"{name}, cell {builds[0]}: a build needs `{BUILDS_EXTENSION}` "
                              "(written `# %load_ext ...` in the source) in a cell above it, "
                              "so that Run All goes past it while it is not answered")


def finish(notebook: nbformat.NotebookNode, source: Path) -> nbformat.NotebookNode:
    """Stable ids and metadata, predictions' answers collapsed, validated."""
    set_stored_metadata(notebook)
    for index, cell in enumerate(notebook.cells):
        cell.id = f"{source.stem[:2]}-{index:03d}"
        cell.metadata = nbformat.from_dict(
            {key: cell.metadata[key] for key in KEPT_CELL_METADATA if key in cell.metadata})
    hide_answers(notebook, source.name)
    nbformat.validate(notebook)
    return notebook


def hide_answers(notebook: nbformat.NotebookNode, name: str) -> None:
    """Keep each prediction's answer out of sight until the learner runs the cell.

    The code cell after a prediction stores its output (nbval compares it) collapsed
    (`jupyter.outputs_hidden`): JupyterLab shows a bar in its place until the cell is run
    (running shows it again) or the learner clicks the bar. An assert-only cell right after it
    states the answer in its source, so that source is stored collapsed (`jupyter.source_hidden`).
    JupyterLab's bar previews the first line of what it hides; the course's JupyterLab shows
    what to do instead (scripts/course_lab.css). A cell tagged `hide-output` is stored collapsed
    too: a long listing that the text offers "one click away".
    """
    cells = notebook.cells
    for cell in cells:
        if HIDE_OUTPUT_TAG in cell.metadata.get("tags", []):
            collapse_output(cell)
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown" or not PREDICTION.search(cell.source):
            continue
        answer = next((i for i in range(index + 1, len(cells))
                       if cells[i].cell_type == "code"), None)
        if answer is None:
            raise SourceError(f"{name}: a prediction with no code cell after it")
        collapse_output(cells[answer])
        follower = cells[answer + 1] if answer + 1 < len(cells) else None
        if follower is not None and follower.cell_type == "code" and \
                is_assert_only(follower.source):
            follower.metadata.setdefault("jupyter", {})["source_hidden"] = True


def collapse_output(cell: nbformat.NotebookNode) -> None:
    # JupyterLab keeps `collapsed` in step with `outputs_hidden` and would add it on open.
    cell.metadata["collapsed"] = True
    cell.metadata.setdefault("jupyter", {})["outputs_hidden"] = True


def is_assert_only(source: str) -> bool:
    """True for a cell of `assert` statements (with comments and continuation lines)."""
    statements = ast.parse(source).body
    return bool(statements) and all(isinstance(s, ast.Assert) for s in statements)


# ---- exercise notebooks

def solutions_notebook(source: Path) -> nbformat.NotebookNode:
    """The instructor's notebook of course/exercises/exNN_name.py, with nbgrader's metadata
    (minigrad_course/checks/markers.py): a cell with worked lines is an answer, named by its
    `grade_id`; the code cell right after it is its check; every other code cell is read-only.
    The grading section closes the notebook."""
    number = source.stem.removeprefix("ex")[:2]
    notebook = read(source)
    text, code = GRADE_SECTION
    notebook.cells += [nbformat.v4.new_markdown_cell(text),
                       nbformat.v4.new_code_cell(code.format(source.stem))]
    counts = {"md": 0, "code": 0}
    previous_answer = None
    for index, cell in enumerate(notebook.cells):
        where = f"{source.name}, cell {index}"
        given = cell.metadata.get("grade_id")
        if cell.cell_type == "markdown":
            counts["md"] += 1
            cell.id, cell.metadata = f"{number}-md-{counts['md']:02d}", nbformat.from_dict({})
            previous_answer = None
            continue
        if markers.BEGIN_SOLUTION in cell.source:
            if not given or not given.startswith(f"{number}-"):
                raise SourceError(f"{where}: an answer cell needs grade_id=\"{number}-name\" "
                                  "after its `# %%`")
            grade_id, role = given, "answer"
        elif given:
            raise SourceError(f"{where}: only an answer cell (with worked lines) has a grade_id")
        elif previous_answer is not None:
            grade_id, role = previous_answer + markers.CHECK_SUFFIX, "check"
        elif index == len(notebook.cells) - 1:
            grade_id, role = f"{number}-grade-notebook", "code"
        else:
            counts["code"] += 1
            grade_id, role = f"{number}-code-{counts['code']:02d}", "code"
        cell.id = grade_id
        cell.metadata = nbformat.from_dict({"nbgrader": nbgrader_metadata(grade_id, role)})
        previous_answer = grade_id if role == "answer" else None
    set_stored_metadata(notebook)
    nbformat.validate(notebook)
    markers.exercises(notebook, source.name)  # the grader's reading of the conventions
    return notebook


def nbgrader_metadata(grade_id: str, role: str) -> dict:
    metadata = {"grade": role == "check", "grade_id": grade_id, "locked": role != "answer",
                "schema_version": 3, "solution": role == "answer", "task": False}
    if role == "check":
        metadata["points"] = 1
    return metadata
