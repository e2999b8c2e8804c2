"""How the course's JupyterLab reads and writes notebook files.

When a kernel starts, JupyterLab copies the kernel's `language_info` into the notebook's
metadata, and a change marks the notebook unsaved. The kernel reports the exact version of its
Python ("3.11.7"), which differs from machine to machine, so the stored notebooks leave it out
(scripts/notebook_run.py). Without this class, opening a lesson would add the version, autosave
would write it, `git status` would list a notebook the learner never touched, and a later
`git pull` would conflict.

So the version lives only in JupyterLab, never in the file: added when a notebook is read (the
kernel runs on the same Python as this server, so it then reports what the notebook already
says, and nothing is marked unsaved), dropped when it is saved (the file keeps its bytes unless
the learner changed something). scripts/set_up_lab.py makes this the server's contents manager.
"""
from __future__ import annotations

import sys

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

# The version string exactly as ipykernel puts it in its language_info.
KERNEL_PYTHON_VERSION = sys.version.split()[0]


def _python_language_info(notebook: dict) -> dict | None:
    info = notebook.get("metadata", {}).get("language_info")
    return info if isinstance(info, dict) and info.get("name") == "python" else None


class CourseContentsManager(AsyncLargeFileManager):
    """Jupyter's default contents manager, but a notebook's Python version is not stored."""

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
        return await super().save(model, path)
