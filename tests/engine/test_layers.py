"""minigrad's layers, as pyproject.toml's import-linter contracts state them: compat/ on top of
the core, fidelity/ at the bottom, each layer importing only from those below it, and no circle
among the modules of a package. (test_import_layers.py checks that any module loads first.)"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def lint_imports(package_parent: Path) -> subprocess.CompletedProcess:
    """`lint-imports` with pyproject.toml's contracts, on the minigrad found in package_parent."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         f"sys.exit(lint_imports(config_filename={str(ROOT / 'pyproject.toml')!r}, "
         "no_cache=True, no_logo=True))"],
        cwd=package_parent, env={"PYTHONPATH": str(package_parent), "PATH": ""},
        capture_output=True, text=True, timeout=120, check=False)


def test_minigrad_keeps_its_layers() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("tensor.py", "from .compat import device", "minigrad.tensor is not allowed to import"),
    ("fidelity/summation.py", "from ..tensor import Tensor", "minigrad.fidelity is not allowed"),
    ("autograd/graph.py", "from ..nn import functional", "minigrad.autograd is not allowed"),
])
def test_an_import_running_back_up_is_refused(tmp_path: Path, module: str, line: str,
                                              broken: str) -> None:
    shutil.copytree(ROOT / "minigrad", tmp_path / "minigrad",
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / "minigrad" / module
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    done = lint_imports(tmp_path)
    assert done.returncode == 1 and broken in done.stdout, done.stdout + done.stderr
