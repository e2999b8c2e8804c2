"""Running a notebook so that its stored outputs are the same bytes on every run and machine
(scripts/build_notebooks.py runs every notebook that is stored with its outputs)."""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

CELL_TIMEOUT_S = 60
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
# What the kernel reports minus its exact Python version, which differs between machines. The
# course's JupyterLab adds the version when it reads a notebook and drops it when it saves one
# (minigrad_course/lab_contents.py), so that a kernel starting changes nothing: for that, every
# stored notebook (exercises/ too) must carry exactly these fields.
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}


def set_stored_metadata(notebook: nbformat.NotebookNode) -> None:
    """The notebook-level metadata every stored notebook carries, and nothing else."""
    notebook.metadata = nbformat.from_dict(
        {"kernelspec": KERNELSPEC, "language_info": LANGUAGE_INFO})


def merged_streams(outputs: list) -> list:
    """Join consecutive prints to the same stream: how the kernel happens to batch them varies
    from run to run (more so on a busy machine), what they say does not."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if output.output_type == "stream" and previous is not None and \
                previous.output_type == "stream" and previous.name == output.name:
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def execute(notebook: nbformat.NotebookNode, folder: Path) -> nbformat.NotebookNode:
    """Run every cell in a fresh `python3` kernel started in `folder`; a cell that raises stops
    the run unless it is tagged `raises-exception`. Timings and versions are left out."""
    NotebookClient(notebook, kernel_name="python3", timeout=CELL_TIMEOUT_S, record_timing=False,
                   resources={"metadata": {"path": str(folder)}}).execute()
    set_stored_metadata(notebook)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = merged_streams(cell.outputs)
    return notebook
