"""Every course notebook, with `import minigrad as torch` swapped for `import torch`, runs on real
PyTorch and prints the same text as the outputs stored in the notebook (which minigrad produced).
A lesson with builds is compared in its answered form (solutions/lessons/), where every cell
runs on the worked answers.

Cells tagged `minigrad-only` (drawing with minigrad.viz, reading minigrad's source) are left out;
any other cell that mentions minigrad is an error, so a forgotten tag cannot hide a difference.
Compared per cell: stdout, the `text/plain` of results and displays, and error names and messages.
Without PyTorch 2.13 the test skips (the `torch` fixture), except in CI, where conftest.py makes
a skip fail."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = [ROOT / "solutions" / "lessons" / path.name
             if (ROOT / "solutions" / "lessons" / path.name).exists() else path
             for path in sorted((ROOT / "notebooks").glob("*.ipynb"))]
MINIGRAD_IMPORT = "import minigrad as torch"
ONLY_ON_MINIGRAD = "minigrad-only"


def _runs_on_torch(cell: nbformat.NotebookNode) -> bool:
    return cell.cell_type == "code" and ONLY_ON_MINIGRAD not in cell.metadata.get("tags", [])


def _text_outputs(cell: nbformat.NotebookNode) -> list[str]:
    """What a reader sees as text, in order; how the kernel split a stream does not matter."""
    parts: list[str] = []
    for output in cell.outputs:
        if output.output_type == "stream":
            label = f"[{output.name}] "
            if parts and parts[-1].startswith(label):
                parts[-1] += output.text
            else:
                parts.append(label + output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(f"[result] {output.data.get('text/plain', '')}")
        elif output.output_type == "error":
            parts.append(f"[error] {output.ename}: {output.evalue}")
    return parts


def _torch_version_of(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    cells = []
    for index, cell in enumerate(notebook.cells):
        if not _runs_on_torch(cell):
            continue
        code = cell.source.replace(MINIGRAD_IMPORT, "import torch")
        assert "minigrad" not in code and "viz." not in code, (
            f"cell {index} uses minigrad beyond the import: tag it {ONLY_ON_MINIGRAD!r}")
        copy = nbformat.from_dict(cell)
        copy.source, copy.outputs, copy.metadata["index"] = code, [], index
        cells.append(copy)
    torch_notebook = nbformat.from_dict(notebook)
    torch_notebook.cells = cells
    return torch_notebook


@pytest.mark.slow  # a kernel per notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_prints_the_same_on_pytorch(path: Path, torch):
    stored = nbformat.read(path, as_version=4)
    assert any(MINIGRAD_IMPORT in cell.source for cell in stored.cells), (
        f"{path.name} should import minigrad with `{MINIGRAD_IMPORT}`")
    torch_notebook = _torch_version_of(stored)
    NotebookClient(torch_notebook, kernel_name="python3", timeout=120,
                   resources={"metadata": {"path": str(path.parent)}}).execute()

    compared = 0
    for cell in torch_notebook.cells:
        index = cell.metadata["index"]
        expected = _text_outputs(stored.cells[index])
        assert _text_outputs(cell) == expected, (
            f"{path.name}, cell {index}, prints differently on PyTorch:\n{cell.source}")
        compared += bool(expected)
    assert compared, f"{path.name} printed nothing to compare"
