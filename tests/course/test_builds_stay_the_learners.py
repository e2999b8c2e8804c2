"""What a lesson asks the learner to write is defined by the learner only: no other cell of the
lesson defines a name a build defines. A later cell that did (`def jacobian(...)` again, a
`grad_a = 64.0`) would run a worked answer by itself, and every cell after it would check that
answer instead of the learner's."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import nbformat
import pytest

from minigrad_course import builds

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import notebook_forms as forms  # noqa: E402

# The answered form holds each build's worked lines, so it names everything a build defines.
ANSWERED = sorted((ROOT / "solutions" / "lessons").glob("*.ipynb"))


def defined(cell: nbformat.NotebookNode) -> set[str]:
    python = "\n".join(line for line in cell.source.splitlines()
                       if not line.lstrip().startswith(("%", "!")))  # magics are not Python
    return builds.names_of(ast.parse(python))[1]


def redefined(notebook: nbformat.NotebookNode) -> list[str]:
    code = [(index, cell) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    built = set().union(*(defined(cell) for _, cell in code if forms.is_build(cell)))
    return [f"cell {index} defines {sorted(defined(cell) & built)}" for index, cell in code
            if not forms.is_build(cell) and defined(cell) & built]


@pytest.mark.parametrize("path", ANSWERED, ids=lambda path: path.stem)
def test_only_a_build_defines_what_it_asks_for(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    assert any(forms.is_build(cell) for cell in notebook.cells)
    assert not redefined(notebook)


def test_a_cell_that_defines_a_builds_name_is_found() -> None:
    notebook = nbformat.read(ROOT / "solutions" / "lessons" / "05_non_scalar_outputs.ipynb",
                             as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell("def jacobian(y, x):\n    return None"))
    assert redefined(notebook) == [f"cell {len(notebook.cells) - 1} defines ['jacobian']"]
