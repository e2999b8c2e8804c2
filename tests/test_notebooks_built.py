"""The committed notebooks are what `scripts/build_notebooks.py` makes of their sources.

Only `course/NN_name.py` is edited by hand; `notebooks/NN_name.ipynb` is built from it. These
checks convert each source again (without executing it, so they are fast) and compare cell by
cell, so a source edited without a rebuild, or a notebook edited by hand, fails here. Whether the
stored outputs are what running produces is nbval's job (`pytest --nbval notebooks/`)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_builder():
    sys.path.insert(0, str(ROOT / "scripts"))  # scripts/ is a folder of scripts, not a package
    spec = importlib.util.spec_from_file_location(
        "build_notebooks", ROOT / "scripts" / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


builder = _load_builder()
SOURCES = builder.course_sources()


def _cells(notebook: nbformat.NotebookNode) -> list[tuple]:
    return [(cell.id, cell.cell_type, cell.source, cell.metadata.get("tags", []),
             cell.metadata.get("jupyter", {}), cell.metadata.get("collapsed"))
            for cell in notebook.cells]


def test_every_notebook_has_a_source_and_every_source_a_notebook():
    notebooks = sorted(path.stem for path in (ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks == [source.stem for source in SOURCES], (
        "notebooks/ and course/ list different names: build with scripts/build_notebooks.py "
        "and never add a notebook by hand")


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_committed_cells_are_the_sources_cells(source: Path):
    built = builder.source_to_notebook(source)
    stored = nbformat.read(builder.notebook_path(source), as_version=4)
    assert _cells(stored) == _cells(built), (
        f"notebooks/{source.stem}.ipynb differs from course/{source.name}: "
        f"run scripts/build_notebooks.py {source.stem}")
    assert stored.metadata == built.metadata


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_committed_notebook_was_run_top_to_bottom(source: Path):
    stored = nbformat.read(builder.notebook_path(source), as_version=4)
    code_cells = [cell for cell in stored.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code_cells] == list(range(1, len(code_cells) + 1))
    assert not any(cell.metadata.get("execution") for cell in code_cells), "timings were stored"


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_every_prediction_keeps_its_answer_hidden(source: Path):
    """Each "Click to reveal" prediction is followed by a cell stored with its output collapsed,
    and the assert that proves the answer, if it comes right after, with its source collapsed."""
    cells = nbformat.read(builder.notebook_path(source), as_version=4).cells
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
    notebook.cells.append(nbformat.v4.new_code_cell("def my_backward(root): ..."))
    notebook.cells[-1].metadata["tags"] = [builder.ANSWER_TAG]
    builder.hide_answers(notebook, "test")
    assert [cell.metadata.get("jupyter") for cell in notebook.cells] == [
        None, {"outputs_hidden": True}, {"source_hidden": True}, None, {"outputs_hidden": True},
        {"source_hidden": True}]
    assert notebook.cells[1].metadata["collapsed"] is True


def test_a_changed_source_is_noticed(tmp_path: Path):
    """The comparison above can fail: editing one character of a source changes its cells."""
    source = SOURCES[0]
    edited = tmp_path / source.name
    edited.write_text(source.read_text(encoding="utf-8").replace("torch", "torch ", 1),
                      encoding="utf-8")
    assert _cells(builder.source_to_notebook(edited)) != _cells(builder.source_to_notebook(source))
