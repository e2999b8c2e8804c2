"""nbgrader's exchange end to end, as a class on a hub uses it, on one machine: the instructor
releases; two students, each with a home of their own, fetch, work and submit; the instructor
collects, autogrades, generates and releases feedback; each student fetches their own.

Every command is nbgrader's own program. The students' processes run as the hub's pods do:
with the class's nbgrader_config.py (hub/nbgrader_config.py, the exchange moved to a temporary
folder), their own HOME, JUPYTERHUB_USER set by the hub, and the OS user jovyan. Being jovyan
is what makes nbgrader take the student's name from JUPYTERHUB_USER (nbgrader.utils.get_username);
this machine has no such user, so the students' processes are told that name
(nbgrader.utils.get_osusername), and nothing else is changed.

One assignment (ex03_accumulation), two students: about a dozen nbgrader processes and two
autograde kernels; the students' steps run side by side."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.worked_answers import worked

pytestmark = pytest.mark.nbgrader  # nbgrader's exchange between an instructor and students

ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENT = "ex03_accumulation"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra")

# A student's process as in a pod: the OS user is jovyan.
AS_JOVYAN = ("import sys, nbgrader.utils; nbgrader.utils.get_osusername = lambda: 'jovyan'; "
             "sys.argv[0] = 'nbgrader'; from nbgrader.apps.nbgraderapp import main; main()")


def clean_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("JUPYTER", "NBGRADER", "MINIGRAD"))}
    # nbgrader runs alembic (its database migrations) as a program found on PATH.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return {**env, **extra}


def instructor(course: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course,
                          env=clean_env(HOME=str(course.parent)), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"nbgrader {' '.join(args)}:\n{done.stdout}{done.stderr}"
    return done.stdout + done.stderr


def students(homes: dict[str, Path], *args: str) -> dict[str, str]:
    """Run `nbgrader ARGS` for every student at once, each in their home; their output."""
    running = {}
    for name, home in homes.items():
        env = clean_env(HOME=str(home), JUPYTERHUB_USER=name,
                        JUPYTER_CONFIG_DIR=str(home / ".jupyter"))
        running[name] = subprocess.Popen([sys.executable, "-c", AS_JOVYAN, *args], cwd=home,
                                         env=env, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True)
    outputs = {}
    for name, process in running.items():
        out, _ = process.communicate(timeout=600)
        assert process.returncode == 0, f"{name}: nbgrader {' '.join(args)}:\n{out}"
        outputs[name] = out
    return outputs


def test_two_students_and_an_instructor_through_the_exchange(tmp_path: Path) -> None:
    exchange = tmp_path / "exchange"
    course = tmp_path / "instructor" / "class"
    laid_out = subprocess.run([sys.executable, "-m", "minigrad_course.nbgrader_course",
                               str(course), ASSIGNMENT, "--exchange", str(exchange)], cwd=ROOT,
                              capture_output=True, text=True)
    assert laid_out.returncode == 0, laid_out.stderr
    config = (course / "nbgrader_config.py").read_text(encoding="utf-8")
    assert f"c.Exchange.root = {str(exchange)!r}" in config
    assert "c.ExchangeCollect.check_owner = False" in config

    instructor(course, "generate_assignment", ASSIGNMENT)
    instructor(course, "release_assignment", ASSIGNMENT)

    # The students' configuration is the image's, with the exchange where this test put it.
    students_config = (ROOT / "hub" / "nbgrader_config.py").read_text(encoding="utf-8")
    assert 'c.Exchange.root = "/srv/nbgrader/exchange"' in students_config
    homes = {name: tmp_path / "home" / name for name in ("alice", "bob")}
    for home in homes.values():
        (home / ".jupyter").mkdir(parents=True)
        (home / ".jupyter" / "nbgrader_config.py").write_text(students_config.replace(
            "/srv/nbgrader/exchange", str(exchange)), encoding="utf-8")

    listed = students(homes, "list")
    assert all(f"minigrad {ASSIGNMENT}" in out for out in listed.values()), listed
    students(homes, "fetch_assignment", ASSIGNMENT)
    # alice works every exercise; bob submits what he fetched, untouched.
    alice_notebook = homes["alice"] / ASSIGNMENT / NOTEBOOK
    alice_notebook.write_text(json.dumps(worked(json.loads(alice_notebook.read_text()),
                                                 ASSIGNMENT)),
                              encoding="utf-8")
    assert (homes["bob"] / ASSIGNMENT / NOTEBOOK).is_file()
    students(homes, "submit", ASSIGNMENT)

    collected = instructor(course, "collect", ASSIGNMENT)
    assert "cheating attempt" not in collected, collected
    assert sorted(p.name for p in (course / "submitted").iterdir()) == ["alice", "bob"]
    instructor(course, "autograde", ASSIGNMENT)
    instructor(course, "generate_feedback", ASSIGNMENT)
    instructor(course, "release_feedback", ASSIGNMENT)

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {name: gradebook.find_submission(ASSIGNMENT, name).score for name in homes}
        max_score = gradebook.find_assignment(ASSIGNMENT).max_score
    assert max_score > 0 and scores == {"alice": max_score, "bob": 0}

    students(homes, "fetch_feedback", ASSIGNMENT)
    for name, home in homes.items():
        [feedback] = (home / ASSIGNMENT / "feedback").glob(f"*/{ASSIGNMENT}.html")
        mine = feedback.read_text(encoding="utf-8")
        expected = (course / "feedback" / name / ASSIGNMENT / f"{ASSIGNMENT}.html")
        assert mine == expected.read_text(encoding="utf-8"), f"{name} got someone else's"
        assert f"Score: {scores[name]:g}" in mine or f"{scores[name]:.1f} / " in mine, name
    bob = (homes["bob"] / ASSIGNMENT / "feedback").glob(f"*/{ASSIGNMENT}.html")
    bob_feedback = next(bob).read_text(encoding="utf-8")
    # An unanswered prediction is one line saying so, not a NameError's traceback.
    assert "Not answered yet: `both_orders` is not defined" in bob_feedback
    for raw in ("NameError", "name 'both_orders' is not defined", "most recent call last"):
        assert raw not in bob_feedback, raw
