"""What a learner's JupyterLab leaves in the clone breaks no test and reaches no student.

Opening a notebook in JupyterLab makes a checkpoint of it (notebooks/.ipynb_checkpoints/...),
through the contents manager `make lab` configures. Here every lesson, exercise and solutions
notebook of a copy of the clone gets its checkpoint made that way; then the copy's test run
collects exactly the notebooks it collects in a clean copy (no checkpoint is run as a notebook
test), git reports nothing to commit, and the students' image takes none of them (Docker's rules
on hub/Dockerfile.dockerignore)."""
from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # opens every notebook of a copy of the clone

pytest.importorskip("docker", reason="docker (Docker's SDK) is in the test extra")

from minigrad_course.lab_contents import CourseContentsManager  # noqa: E402
from students_image import context_files, export_tracked, git  # noqa: E402

FOLDERS = ("notebooks", "exercises", "solutions")


def collected(clone: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p",
                           "no:cacheprovider", "-p", "no:randomly", "-n", "0", *FOLDERS],
                          cwd=clone, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_checkpoints_are_neither_tested_nor_committed_nor_shipped(tmp_path: Path) -> None:
    clone = export_tracked(tmp_path / "clone")
    git("init", "--quiet", cwd=clone)
    git("add", "--all", cwd=clone)
    git("commit", "--quiet", "-m", "clone", cwd=clone)
    clean = collected(clone)
    assert any(item.startswith("notebooks/") for item in clean)

    contents = CourseContentsManager(root_dir=str(clone))
    opened = [f"{folder}/{path.name}" for folder in FOLDERS
              for path in sorted((clone / folder).glob("*.ipynb"))]
    for path in opened:  # JupyterLab asks for one when it opens a notebook
        asyncio.run(contents.create_checkpoint(path))
    made = sorted(clone.glob("*/.ipynb_checkpoints/*.ipynb"))
    assert len(made) == len(opened), made

    assert collected(clone) == clean
    assert git("status", "--porcelain", cwd=clone) == ""
    assert not {p.relative_to(clone).as_posix() for p in made} & context_files(clone)
