"""The course as an nbgrader class, end to end, with nbgrader's own commands: lay it out from
solutions/ (python -m minigrad_course.nbgrader_course), generate_assignment, two students'
submissions and four students' attacks, autograde, export, generate_feedback. Worked answers
scoring full marks is test_nbgrader_exchange.py's (its alice): the solution runs there, once.

One assignment, ex03_accumulation: it has a hidden test (an answer can pass the visible check and
fail the hidden one), a read-only cell whose bug the learner fixes, and four exercises; four
students try to cheat (every exception silenced, numpy.allclose patched, `check` rebound to a
no-op, every check function replaced) and score 0; each
nbgrader command starts a Python process and autograde a kernel per student, so every further
assignment would add about half a minute without testing anything new. Exit codes, the scores in
the gradebook and in the exported CSV decide; nbgrader's warnings are read too: no deprecated
setting, and a "has changed" warning only for the one check cell a student did change."""
from __future__ import annotations

import csv
import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from minigrad_course.checks import markers
from minigrad_course.nbgrader_course import (FEEDBACK_PREPROCESSORS, SANITIZE_PREPROCESSORS,
                                             for_class)
from harness.worked_answers import worked

pytestmark = pytest.mark.nbgrader  # nbgrader's own commands, a kernel per notebook

ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENT = "ex03_accumulation"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra")


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    """Run `nbgrader ARGS` in the course folder; fails the test on a non-zero exit."""
    # nbgrader runs alembic (its database migrations) as a program found on PATH.
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                                 os.environ.get("PATH", "")]))
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"nbgrader {' '.join(args)}:\n{done.stdout}{done.stderr}"
    assert "Outdated config" not in done.stdout + done.stderr, done.stderr  # a deprecated name
    return done


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def notebook_copy(notebook: dict) -> dict:
    return json.loads(json.dumps(notebook))


def cell(notebook: dict, grade_id: str) -> dict:
    return next(c for c in notebook["cells"] if markers.grade_id(c) == grade_id)


# Passes the visible check, which tries 8 samples in micro-batches of 2 and 10 in batches of 4,
# and nothing else: the hidden test tries other sizes.
ONLY_THE_VISIBLE_SIZES = """def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    if n not in (8, 10):
        return
    for start in range(0, n, micro_batch_size):
        batch = inputs[start:start + micro_batch_size]
        wanted = targets[start:start + micro_batch_size]
        ((batch @ w - wanted) ** 2).sum().__truediv__(n).backward()"""


# Wrong answers, each of which a check rejects; the attacks below try to make them pass.
WRONG = {"03-both-orders": "both_orders = [4.0, 12.0, 12.0, 4.0]",
         "03-loop": "after_loop = [3.0, 3.0]",
         "03-two-losses": "def gradients_of_two_losses(w):\n    return w, w",
         "03-micro-batches": "def accumulate_gradient(w, inputs, targets, size):\n    pass"}
ATTACKS = {  # student -> code put above the first wrong answer
    "dave": "get_ipython().set_custom_exc((BaseException,), lambda *a, **k: None)",
    "erin": "import numpy\nnumpy.allclose = lambda *a, **k: True",
    "frank": "class NoCheck:\n    def __getattr__(self, name):\n        return lambda *a, **k: None\n"
             "check = NoCheck()",
    "gina": "for name in dir(check):\n    if not name.startswith('_'):\n"
            "        setattr(check, name, lambda *a, **k: None)",
}


def attacked(release: dict, code: str) -> dict:
    notebook = notebook_copy(release)
    for grade_id, answer in WRONG.items():
        cell(notebook, grade_id)["source"] = answer
    cell(notebook, "03-both-orders")["source"] = code + "\n" + WRONG["03-both-orders"]
    return notebook


def submit(course: Path, student: str, notebook: dict) -> None:
    folder = course / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    (folder / NOTEBOOK).write_text(json.dumps(notebook), encoding="utf-8")


def test_the_course_as_an_nbgrader_class(tmp_path: Path) -> None:
    course = tmp_path / "class"
    laid_out = subprocess.run([sys.executable, "-m", "minigrad_course.nbgrader_course",
                               str(course), ASSIGNMENT], cwd=ROOT, capture_output=True, text=True)
    assert laid_out.returncode == 0, laid_out.stderr
    assert (course / "nbgrader_config.py").is_file()
    assert (course / "source" / ASSIGNMENT / NOTEBOOK).is_file()

    nbgrader(course, "generate_assignment", ASSIGNMENT)
    release = load(course / "release" / ASSIGNMENT / NOTEBOOK)

    # The students' copy is exercises/ cell by cell, less the repository's links.
    exercise = load(ROOT / "exercises" / NOTEBOOK)
    expected = for_class(exercise)
    assert len(release["cells"]) == len(expected["cells"])
    for index, (got, want) in enumerate(zip(release["cells"], expected["cells"])):
        where = f"cell {index}"
        assert got["cell_type"] == want["cell_type"], where
        assert markers.source_of(got) == markers.source_of(want), where
        ours = markers.nbgrader(want)
        assert {key: markers.nbgrader(got).get(key) for key in ours} == ours, where
    changed = [i for i, (a, b) in enumerate(zip(exercise["cells"], expected["cells"]))
               if markers.source_of(a) != markers.source_of(b)]
    assert changed and all(exercise["cells"][i]["cell_type"] == "markdown" for i in changed)
    text = "\n".join(markers.source_of(c) for c in release["cells"])
    assert "../notebooks/" not in text and f"](../ex04_resetting_gradients/" in text

    # alice hands in the release untouched; carol the worked answers, except a wrong 03-loop
    # whose check cell she emptied, and a micro-batch answer that passes only the visible check.
    submit(course, "alice", release)
    carol = worked(release, ASSIGNMENT)
    cell(carol, "03-loop")["source"] = "after_loop = [4.0, 4.0]"
    cell(carol, "03-loop-check")["source"] = "pass  # checked it myself"
    cell(carol, "03-micro-batches")["source"] = ONLY_THE_VISIBLE_SIZES
    submit(course, "carol", carol)
    # dave silences every exception; erin makes numpy.allclose say yes to anything; frank
    # rebinds `check` to an object that does nothing; gina replaces every check by a no-op
    for student, code in ATTACKS.items():
        submit(course, student, attacked(release, code))

    autograded = nbgrader(course, "autograde", ASSIGNMENT)
    # Read-only cells are put back from the gradebook; only carol's emptied check is reported.
    changed = re.findall(r"Attribute '(\w+)' for cell ([\w-]+) has changed",
                         autograded.stdout + autograded.stderr)
    assert changed == [("checksum", "03-loop-check")], autograded.stderr
    # And nothing else to read past: no warning of nbgrader's, SQLAlchemy's or the kernels'.
    warned = [line for line in (autograded.stdout + autograded.stderr).splitlines()
              if re.search(r"WARNING|Warning", line) and "has changed" not in line]
    assert warned == [], warned
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {s: gradebook.find_submission(ASSIGNMENT, s).score
                  for s in ("alice", "carol", *ATTACKS)}
        max_score = gradebook.find_assignment(ASSIGNMENT).max_score
        carol_cells = {grade.name: grade.score for grade in
                       gradebook.find_submission_notebook(NOTEBOOK.removesuffix(".ipynb"),
                                                          ASSIGNMENT, "carol").grades}
    assert max_score == 4
    assert scores == {"alice": 0, "carol": 2, "dave": 0, "erin": 0, "frank": 0, "gina": 0}
    assert carol_cells == {"03-both-orders-check": 1, "03-loop-check": 0,
                           "03-two-losses-check": 1, "03-micro-batches-check": 0}

    nbgrader(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert {s: float(rows[s]["raw_score"]) for s in rows} == scores
    assert all(float(row["max_score"]) == 4 for row in rows.values())

    fed_back = nbgrader(course, "generate_feedback", ASSIGNMENT)
    assert "WARNING" not in fed_back.stdout + fed_back.stderr, fed_back.stderr
    feedback = (course / "feedback" / "carol" / ASSIGNMENT /
                f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    # The restored check's message and the hidden test's, as the checks word them.
    assert "after_loop" in feedback and "checked it myself" not in feedback
    assert "with 7 samples in micro-batches of 3: w.grad is still None" in feedback
    # Students never see the hidden tests: not the one that tries other sizes, not the guard.
    hidden = [line for c in load(course / "source" / ASSIGNMENT / NOTEBOOK)["cells"]
              for line in hidden_lines(markers.source_of(c))]
    assert any("micro_batches_uneven" in line for line in hidden)
    assert any("refuse_if_tampered" in line for line in hidden)
    for student in ("alice", "carol", *ATTACKS):
        shown = html.unescape((course / "feedback" / student / ASSIGNMENT /
                               f"{ASSIGNMENT}.html").read_text(encoding="utf-8"))
        assert "HIDDEN TESTS" not in shown, student
        assert not [line for line in hidden if line in shown], student
    erin = (course / "feedback" / "erin" / ASSIGNMENT /
            f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    assert "This check cannot be trusted" in erin and "numpy.allclose" in erin
    gina = (course / "feedback" / "gina" / ASSIGNMENT /
            f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    assert "This check cannot be trusted" in gina and "both_orders" in gina


def hidden_lines(source: str) -> list[str]:
    """The lines of `source` between nbgrader's hidden-test markers, stripped."""
    lines, inside = [], False
    for line in source.split("\n"):
        if markers.BEGIN_HIDDEN in line or markers.END_HIDDEN in line:
            inside = markers.BEGIN_HIDDEN in line
        elif inside and line.strip() and not line.strip().startswith("#"):
            lines.append(line.strip())
    return lines


def test_the_class_config_changes_only_what_it_says_in_nbgraders_defaults() -> None:
    """Feedback: nbgrader's preprocessors plus ClearHiddenTests; autograde's sanitizing:
    nbgrader's with OverwriteCells replaced by RestoreCells. An nbgrader release that changes
    its own lists fails here rather than losing a step silently."""
    from nbgrader.converters import Autograde, GenerateFeedback

    def names(owner: type, trait: str) -> list[str]:
        return [f"{c.__module__.rsplit('.', 1)[0]}.{c.__name__}"
                for c in owner.class_traits()[trait].default()]

    assert FEEDBACK_PREPROCESSORS == [
        *names(GenerateFeedback, "preprocessors"),
        "minigrad_course.nbgrader_preprocessors.ClearHiddenTestsFromFeedback"]
    assert SANITIZE_PREPROCESSORS == [
        "minigrad_course.nbgrader_preprocessors.RestoreCells"
        if name == "nbgrader.preprocessors.OverwriteCells" else name
        for name in names(Autograde, "sanitize_preprocessors")]


def lay_out(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "minigrad_course.nbgrader_course",
                           *map(str, args)], cwd=cwd, capture_output=True, text=True)


def one_error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_layout_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    """A missing notebook, a malformed one, a folder with none, one from another course."""
    assert "no notebook ex99_nothing" in one_error_line(lay_out(tmp_path / "c", "ex99_nothing"))
    assert "no course here" in one_error_line(lay_out(tmp_path / "c", cwd=tmp_path))

    other = tmp_path / "other"
    (other / "solutions").mkdir(parents=True)
    (other / "solutions" / "ex01_broken.ipynb").write_text('{"cells": [', encoding="utf-8")
    assert "ex01_broken.ipynb: not a notebook" in one_error_line(
        lay_out(tmp_path / "c", "--course", other))

    plain = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1",
                        "outputs": [], "execution_count": None}],
             "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (other / "solutions" / "ex01_broken.ipynb").write_text(json.dumps(plain), "utf-8")
    assert "not an exercise notebook of this course" in one_error_line(
        lay_out(tmp_path / "c", "--course", other))
    assert not (tmp_path / "c").exists(), "nothing is written when a notebook is refused"


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb")))
def test_the_class_copy_has_no_link_into_the_repository(name: str) -> None:
    """Every link of a class's notebook leads where a student's files are: the next exercise's
    assignment folder beside this one. The repository's copy keeps its links."""
    exercise = load(ROOT / "exercises" / name)
    text = "\n".join(markers.source_of(c) for c in for_class(exercise)["cells"])
    links = re.findall(r"\]\(([^)]*)\)", text)
    assert "../notebooks/" not in text and "exercises/" not in text
    for link in links:
        folder, file = link.removeprefix("../").split("/")
        assert link.startswith("../") and file == f"{folder}.ipynb", link
        assert (ROOT / "exercises" / file).is_file(), link
    repository = "\n".join(markers.source_of(c) for c in exercise["cells"])
    assert f"(../notebooks/{name.removeprefix('ex')})" in repository


def test_laying_out_again_keeps_the_instructors_config(tmp_path: Path) -> None:
    assert lay_out(tmp_path / "c", ASSIGNMENT).returncode == 0
    config = tmp_path / "c" / "nbgrader_config.py"
    assert "c.CourseDirectory.course_id = 'minigrad'" in config.read_text(encoding="utf-8")
    assert "c.ExchangeCollect.check_owner = False" in config.read_text(encoding="utf-8")
    config.write_text("c = get_config()\nc.Exchange.root = '/srv/class'\n", encoding="utf-8")
    again = lay_out(tmp_path / "c", ASSIGNMENT, "ex04_resetting_gradients")
    assert again.returncode == 0 and "nbgrader_config.py" not in again.stdout
    assert "/srv/class" in config.read_text(encoding="utf-8")
    assert (tmp_path / "c" / "source" / "ex04_resetting_gradients").is_dir()


def test_the_learners_lab_has_nbgrader_turned_off() -> None:
    """The tests install nbgrader, which turns its panels on in every JupyterLab of the
    environment; scripts/set_up_lab.py (run by `make venv`) turns them off in the course's."""
    jupyter = [sys.executable, "-m", "jupyter"]
    lab = subprocess.run([*jupyter, "labextension", "list"], capture_output=True, text=True)
    line = next(line for line in (lab.stdout + lab.stderr).splitlines()
                if "@jupyter/nbgrader v" in line)
    assert "disabled" in line, line
    server = subprocess.run([*jupyter, "server", "extension", "list"], capture_output=True,
                            text=True)
    states = [line for line in (server.stdout + server.stderr).splitlines()
              if line.strip().startswith("nbgrader.server_extensions.") and "abled" in line]
    assert len(states) == 4 and all("disabled" in line for line in states), states
