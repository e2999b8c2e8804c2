"""How the course's JupyterLab reads and writes notebook files, so that a lesson run as it ships
saves the same bytes it was opened with (`git status` stays clean, `git pull` never conflicts).
scripts/set_up_lab.py makes this the server's contents manager. Two things JupyterLab changes
in a notebook are view state, not content, and are kept out of the file:

- The kernel's Python version. When a kernel starts, JupyterLab copies the kernel's
  `language_info` into the notebook's metadata, and a change marks the notebook unsaved. The
  kernel reports its exact Python ("3.11.7"), which differs between machines, so the stored
  notebooks leave it out (scripts/notebook_run.py). It lives only in JupyterLab: added when a
  notebook is read (the kernel runs on this server's Python, so it then reports what the
  notebook already says, and nothing is marked unsaved), dropped when it is saved.
- A hidden answer. A prediction's answer is stored collapsed (`collapsed` and
  `jupyter.outputs_hidden`, the assert after it `jupyter.source_hidden`: see
  scripts/notebook_forms.py); running the cell shows it, and JupyterLab would save it shown.
  A cell the file stores hidden is saved hidden again, whatever the learner ran or opened: the
  next time the notebook opens, the answer waits behind its bar as before.
"""
from __future__ import annotations

import sys

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado.web import HTTPError

# The version string exactly as ipykernel puts it in its language_info.
KERNEL_PYTHON_VERSION = sys.version.split()[0]
HIDING = ("outputs_hidden", "source_hidden")  # keys of a cell's `jupyter` metadata


def _python_language_info(notebook: dict) -> dict | None:
    info = notebook.get("metadata", {}).get("language_info")
    return info if isinstance(info, dict) and info.get("name") == "python" else None


def _hidden_parts(cell: dict) -> dict:
    """{"collapsed": True, "outputs_hidden": True, ...}: what of the cell is stored hidden."""
    metadata = cell.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    jupyter = metadata.get("jupyter") if isinstance(metadata.get("jupyter"), dict) else {}
    hidden = {key: True for key in HIDING if jupyter.get(key) is True}
    if hidden.get("outputs_hidden") and metadata.get("collapsed") is True:
        hidden["collapsed"] = True
    return hidden


def keep_hidden(notebook: dict, stored: dict) -> None:
    """Hide again, in `notebook` (about to be saved), what `stored` (the file) hides, cell by
    cell id."""
    hidden = {cell.get("id"): parts for cell in stored.get("cells", [])
              if (parts := _hidden_parts(cell))}
    for cell in notebook.get("cells", []):
        parts = hidden.get(cell.get("id")) if isinstance(cell, dict) else None
        if not parts or not isinstance(cell.get("metadata"), dict):
            continue
        if parts.pop("collapsed", False):
            cell["metadata"]["collapsed"] = True
        jupyter = cell["metadata"].setdefault("jupyter", {})
        if isinstance(jupyter, dict):
            jupyter.update(parts)


class CourseContentsManager(AsyncLargeFileManager):
    """Jupyter's default contents manager, but a notebook's Python version is not stored, and
    an answer stored hidden stays hidden."""

    async def get(self, path, content=True, type=None, format=None, require_hash=False):
        model = await super().get(path, content=content, type=type, format=format,
                                  require_hash=require_hash)
        if model["type"] == "notebook" and model.get("content"):
            info = _python_language_info(model["content"])
            if info is not None:
                info["version"] = KERNEL_PYTHON_VERSION
        return model

    async def save(self, model, path=""):
        if model.get("type") == "notebook" and model.get("content"):
            info = _python_language_info(model["content"])
            if info is not None:
                info.pop("version", None)
            try:
                stored = await super().get(path, content=True, type="notebook")
            except HTTPError:  # a new notebook, or the file is not one
                stored = None
            if stored is not None:
                keep_hidden(model["content"], stored["content"])
        return await super().save(model, path)
