"""docs/teaching.md's "One machine, one OS user per student", run as written: root sets up the
environment and the exchange, a teacher and two students who are three new OS users run their
blocks as themselves, from fetch to feedback.

Needs root (to create the users and run as them), as CI runs. The users get names of their own
for this run and are deleted at the end; their homes, the environment and the exchange are in a
temporary folder. What differs from the recipe, and why: the environment's two lines that
create it and install into it (`python3.11 -m venv`, `pip install`) are replaced by a venv
layered over this project's (tests/deploy/students_image.py: the same packages, without a minute of
installing); the first line's paths are temporary ones; the clone comes from a local copy of the
repository instead of GitHub. Every other line runs as the doc gives it."""
from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.nbgrader  # docs/teaching.md's recipe, as OS users

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra")

from students_image import ROOT, export_tracked, git, layered_environment  # noqa: E402
from harness.worked_answers import worked  # noqa: E402

ASSIGNMENT = "ex03_accumulation"
CLONE_URL = "https://github.com/you/minigrad.git"
if os.geteuid() != 0:
    pytest.skip("creating OS users needs root (CI runs as root)", allow_module_level=True)


def recipe() -> list[str]:
    """The section's ```sh blocks, in order."""
    text = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    section = text.split("## One machine, one OS user per student")[1].split("\n## ")[0]
    return re.findall(r"```sh\n(.*?)```", section, re.DOTALL)


def test_the_recipe_has_the_blocks_this_test_runs() -> None:
    blocks = recipe()
    assert [block.split("\n")[0].split(":")[0] for block in blocks] == [
        "# 1. As root, once", "# 2. As the teacher", "# 3. As each student (or Nbgrader > "
        "Assignment List in JupyterLab", "# 4. As the teacher", "# 5. As each student"]
    assert blocks[0].split("\n")[1].startswith("ENV=/opt/minigrad EXCHANGE=")
    assert "--check-owner" in blocks[1]


def make_traversable(path: Path, undo: list[tuple[Path, int]]) -> None:
    """Let other users pass through each folder down to `path` that keeps them out, noting
    each folder's mode to put back at the end."""
    for folder in [*reversed(path.parents), path]:
        mode = folder.stat().st_mode
        if not mode & stat.S_IXOTH:
            undo.append((folder, mode))
            folder.chmod(mode | stat.S_IXOTH)


@pytest.fixture(scope="module")
def machine() -> Iterator[dict]:
    undo: list[tuple[Path, int]] = []
    base = Path(tempfile.mkdtemp(prefix="minigrad-os-users-"))
    base.chmod(0o755)
    tag = uuid.uuid4().hex[:6]
    users = {role: f"mg{role[0]}{tag}" for role in ("teacher", "ada", "grace")}
    created = []
    try:
        # The interpreter (its own prefix may be in root's home, as pyenv's is), the project's
        # environment and its editable install: the users' processes run them.
        for needed in (Path(sys.base_prefix), Path(sys.prefix), ROOT):
            make_traversable(needed, undo)
        (base / "home").mkdir()
        for name in users.values():
            subprocess.run(["useradd", "--create-home", "--home-dir", str(base / "home" / name),
                            "--shell", "/bin/bash", "--user-group", name], check=True,
                           capture_output=True)
            created.append(name)
            # The local copy standing for GitHub is root's: git reads another user's
            # repository only when told to.
            entry = pwd.getpwnam(name)
            gitconfig = Path(entry.pw_dir) / ".gitconfig"
            gitconfig.write_text("[safe]\n\tdirectory = *\n", encoding="utf-8")
            os.chown(gitconfig, entry.pw_uid, entry.pw_gid)
        # The repository as it would be on GitHub: what git tracks.
        repository = export_tracked(base / "repository")
        git("init", "--quiet", cwd=repository)
        git("add", "--all", cwd=repository)
        git("commit", "--quiet", "-m", "the course", cwd=repository)
        yield {"base": base, "users": users, "repository": repository,
               "paths": {"ENV": base / "env", "EXCHANGE": base / "exchange",
                         "SRC": base / "src"}}
    finally:
        for name in created:
            subprocess.run(["userdel", name], capture_output=True)
        for folder, mode in reversed(undo):
            folder.chmod(mode)
        shutil.rmtree(base, ignore_errors=True)


def as_root(machine: dict, block: str) -> None:
    paths = machine["paths"]
    first = block.split("\n")[1]
    assert first.startswith("ENV=")
    block = block.replace(first, " ".join(f"{k}={v}" for k, v in paths.items()), 1)
    block = block.replace(CLONE_URL, str(machine["repository"]))
    # The environment's creation and install: a layered venv with the same packages.
    for line in ('python3.11 -m venv "$ENV"', '"$ENV/bin/pip" install "$SRC[course]" '
                 'nbgrader==0.9.6'):
        assert line in block, line
        block = block.replace(line, "")
    layered_environment(paths["ENV"])
    run(block, env={"PATH": os.environ["PATH"], "HOME": "/root",
                    "JUPYTER_PATH": str(Path(sys.prefix) / "share" / "jupyter")})


def run(script: str, env: dict[str, str], user: str | None = None) -> str:
    options = {}
    if user is not None:
        entry = pwd.getpwnam(user)
        options = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": [],
                   "cwd": entry.pw_dir}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], env=env,
                          capture_output=True, text=True, timeout=900, **options)
    assert done.returncode == 0, f"as {user or 'root'}:\n{script}\n---\n{done.stdout}{done.stderr}"
    return done.stdout + done.stderr


def as_user(machine: dict, name: str, script: str) -> str:
    """`script` in a terminal of `name` whose PATH starts with the course's environment."""
    entry = pwd.getpwnam(name)
    env = {"HOME": entry.pw_dir, "USER": name, "LOGNAME": name, "LANG": "C.UTF-8",
           "PATH": f"{machine['paths']['ENV'] / 'bin'}:/usr/local/bin:/usr/bin:/bin",
           # The layered environment's share/jupyter (nbconvert's templates) is the project's.
           "JUPYTER_PATH": str(Path(sys.prefix) / "share" / "jupyter")}
    return run(script.replace(CLONE_URL, str(machine["repository"])), env, user=name)


def cannot_list(machine: dict, user: str, folder: Path) -> None:
    assert folder.is_dir(), folder
    with pytest.raises(AssertionError, match="Permission denied"):
        as_user(machine, user, f"ls {folder}")


def test_two_students_who_are_two_os_users_from_fetch_to_feedback(machine: dict) -> None:
    setup, release, student_work, grading, feedback = recipe()
    users = machine["users"]
    teacher, students = users["teacher"], [users["ada"], users["grace"]]
    as_root(machine, setup)
    as_user(machine, teacher, release)

    exchange = machine["paths"]["EXCHANGE"]
    fetch, submit = [line for line in student_work.split("\n") if line.startswith("nbgrader")]
    for student in students:
        as_user(machine, student, fetch)
    home = Path(pwd.getpwnam(students[0]).pw_dir)
    fetched = home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    answered = json.dumps(worked(json.loads(fetched.read_text(encoding="utf-8")), ASSIGNMENT))
    as_user(machine, students[0], f"cat > {fetched} <<'EOF'\n{answered}\nEOF")
    for student in students:
        as_user(machine, student, submit)
    # A student cannot list what others handed in, nor (below) the released feedback.
    cannot_list(machine, students[1], exchange / "minigrad" / "inbound")

    graded = as_user(machine, teacher, grading)
    cannot_list(machine, students[1], exchange / "minigrad" / "feedback")
    assert "cheating attempt" not in graded and not re.search(r"WARNING|Warning", graded), graded
    course = Path(pwd.getpwnam(teacher).pw_dir) / "minigrad-class"
    # Each submission is filed under its student's own name: two students, not one.
    assert sorted(p.name for p in (course / "submitted").iterdir()) == sorted(students)
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {s: gradebook.find_submission(ASSIGNMENT, s).score for s in students}
        max_score = gradebook.find_assignment(ASSIGNMENT).max_score
    assert max_score > 0 and scores == {students[0]: max_score, students[1]: 0}

    for student in students:
        as_user(machine, student, feedback)
        [mine] = (Path(pwd.getpwnam(student).pw_dir) / ASSIGNMENT / "feedback").glob(
            f"*/{ASSIGNMENT}.html")
        assert mine.stat().st_uid == pwd.getpwnam(student).pw_uid
        assert mine.read_text(encoding="utf-8") == (
            course / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text(
            encoding="utf-8"), student
