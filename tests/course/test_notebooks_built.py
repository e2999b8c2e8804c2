"""The committed lessons are what `scripts/build_notebooks.py` makes of their sources.

Only `course/NN_name.py` is edited by hand; `notebooks/NN_name.ipynb` (the learner's form) and,
for a lesson with builds, `solutions/lessons/NN_name.ipynb` (the answered form) are built from
it. These checks convert each source again (without executing it, so they are fast) and compare
cell by cell, so a source edited without a rebuild, or a notebook edited by hand, fails here.
Whether the stored outputs are what running produces is nbval's job (`pytest --nbval`)."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import nbformat
import pytest

from minigrad_course import builds
from minigrad_course.checks import markers

ROOT = Path(__file__).resolve().parents[2]


def _load_builder():
    sys.path.insert(0, str(ROOT / "scripts"))  # scripts/ is a folder of scripts, not a package
    spec = importlib.util.spec_from_file_location(
        "build_notebooks", ROOT / "scripts" / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


builder = _load_builder()
forms = sys.modules["notebook_forms"]
SOURCES = builder.course_sources()
WITH_BUILDS = [source for source in SOURCES if forms.lesson_forms(source)[1] is not None]


def _stored_forms(source: Path) -> list[tuple[nbformat.NotebookNode, nbformat.NotebookNode]]:
    """(as built now, as stored) for each form of the lesson."""
    learner, answered = forms.lesson_forms(source)
    pairs = [(learner, nbformat.read(builder.notebook_path(source), as_version=4))]
    if answered is not None:
        pairs.append((answered, nbformat.read(builder.answered_path(source), as_version=4)))
    return pairs


def _cells(notebook: nbformat.NotebookNode) -> list[tuple]:
    return [(cell.id, cell.cell_type, cell.source, cell.metadata.get("tags", []),
             cell.metadata.get("jupyter", {}), cell.metadata.get("collapsed"))
            for cell in notebook.cells]


def test_every_notebook_has_a_source_and_every_source_a_notebook():
    notebooks = sorted(path.stem for path in (ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks == [source.stem for source in SOURCES], (
        "notebooks/ and course/ list different names: build with scripts/build_notebooks.py "
        "and never add a notebook by hand")
    answered = sorted(path.stem for path in builder.ANSWERED_LESSONS.glob("*.ipynb"))
    assert answered == [source.stem for source in WITH_BUILDS], (
        "solutions/lessons/ holds the answered form of exactly the lessons with builds")


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_committed_cells_are_the_sources_cells(source: Path):
    for built, stored in _stored_forms(source):
        assert _cells(stored) == _cells(built), (
            f"a form of course/{source.name} differs from its source: "
            f"run scripts/build_notebooks.py {source.stem}")
        assert stored.metadata == built.metadata


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_committed_notebook_was_run_top_to_bottom(source: Path):
    for _, stored in _stored_forms(source):
        code_cells = [cell for cell in stored.cells if cell.cell_type == "code"]
        assert [cell.execution_count for cell in code_cells] == \
            list(range(1, len(code_cells) + 1))
        assert not any(cell.metadata.get("execution") for cell in code_cells), "timings stored"


@pytest.mark.parametrize("source", WITH_BUILDS, ids=lambda path: path.stem)
def test_a_build_ships_as_a_stub_with_its_answer_closed(source: Path):
    """In notebooks/, each build holds the placeholder where its worked lines were and says
    "Not answered yet" in one line; the worked answer follows as a closed <details> that does
    not run; no output is a check's verdict. The answered form holds the worked lines."""
    learner, answered = (stored for _, stored in _stored_forms(source))
    stubs = [i for i, cell in enumerate(learner.cells) if forms.is_build(cell)]
    worked = [cell for cell in answered.cells if forms.is_build(cell)]
    assert len(stubs) == len(worked) > 0
    for index, answer in zip(stubs, worked):
        stub, reveal = learner.cells[index], learner.cells[index + 1]
        assert all(line in stub.source for line in markers.PLACEHOLDER)
        assert markers.BEGIN_SOLUTION not in stub.source + answer.source
        assert [(o.output_type, o.text) for o in stub.outputs] == [
            ("stream", builds.NOT_ANSWERED + "\n")]
        assert reveal.cell_type == "markdown" and forms.WORKED_ANSWER_TAG in reveal.metadata.tags
        assert reveal.source == forms.WORKED_ANSWER.format(answer.source)
        assert "<details>" in reveal.source and "<details open" not in reveal.source
    for cell in learner.cells:
        for output in getattr(cell, "outputs", []):
            text = output.get("text", "") + str(output.get("data", {}))
            assert "✓" not in text and "✗" not in text.replace(builds.NOT_ANSWERED, ""), (
                f"a check's verdict stored in notebooks/{source.stem}.ipynb: {text}")


@pytest.mark.parametrize("mistake", [
    ("# %% tags=[\"answer\"]", "the `answer` tag ran the worked answer"),
    ("# %%", "worked lines outside a cell tagged 'build'"),
    ("# %% tags=[\"build\"]\n# %load_ext minigrad_course.builds", "needs `%load_ext"),
])
def test_a_build_that_would_run_for_the_learner_is_refused(tmp_path: Path, mistake):
    header, message = mistake
    source = tmp_path / "99_lesson.py"
    source.write_text(f"# %%\nx = 1\n\n{header}\n### BEGIN SOLUTION\ny = x\n### END SOLUTION\n")
    with pytest.raises(forms.SourceError, match=re.escape(message)):
        forms.lesson_forms(source)


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_every_prediction_keeps_its_answer_hidden(source: Path):
    """Each "Click to reveal" prediction is followed by a cell stored with its output collapsed,
    and the assert that proves the answer, if it comes right after, with its source collapsed."""
    for _, stored in _stored_forms(source):
        _assert_predictions_hidden(stored.cells)


def _assert_predictions_hidden(cells: list) -> None:
    predictions = [i for i, cell in enumerate(cells)
                   if cell.cell_type == "markdown" and builder.PREDICTION.search(cell.source)]
    hidden = [i for i, cell in enumerate(cells)
              if cell.metadata.get("jupyter", {}).get("outputs_hidden")
              and builder.HIDE_OUTPUT_TAG not in cell.metadata.get("tags", [])]
    assert len(hidden) == len(predictions)
    for prediction, answer in zip(predictions, hidden):
        assert all(cell.cell_type == "markdown" for cell in cells[prediction + 1:answer])
        assert cells[answer].outputs, f"cell {answer} shows nothing when the learner runs it"
        after = cells[answer + 1] if answer + 1 < len(cells) else None
        if after is not None and after.source.startswith("assert "):
            assert after.metadata.get("jupyter", {}).get("source_hidden"), f"cell {answer + 1}"


def test_a_prediction_without_hidden_answer_is_noticed():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("<details><summary>What? Click to\nreveal</summary>"),
        nbformat.v4.new_code_cell("x.grad"), nbformat.v4.new_code_cell("assert x.grad == 2"),
        nbformat.v4.new_code_cell("assert True\nprint(x)")])
    notebook.cells.append(nbformat.v4.new_code_cell("print(listing)"))
    notebook.cells[-1].metadata["tags"] = [builder.HIDE_OUTPUT_TAG]
    builder.hide_answers(notebook, "test")
    assert [cell.metadata.get("jupyter") for cell in notebook.cells] == [
        None, {"outputs_hidden": True}, {"source_hidden": True}, None, {"outputs_hidden": True}]
    assert notebook.cells[1].metadata["collapsed"] is True


def test_a_changed_source_is_noticed(tmp_path: Path):
    """The comparison above can fail: editing one character of a source changes its cells."""
    source = SOURCES[0]
    edited = tmp_path / source.name
    edited.write_text(source.read_text(encoding="utf-8").replace("torch", "torch ", 1),
                      encoding="utf-8")
    assert _cells(builder.source_to_notebook(edited)) != _cells(builder.source_to_notebook(source))
