"""Hostile notebooks (tests/grading/hostile_notebooks.py) graded as a class, --jobs 2: every attack
on the grader from inside the student's process, and every attack on the class from a worker,
gets no credit, and takes nothing from anyone else (issue 30). Each of these notebooks got
credit for wrong answers from the grader that ran the checks in the student's process."""
from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hostile_notebooks as hostile
from minigrad_course.grade.__main__ import main
from minigrad_course.grade.sandbox import DEFAULT_UIDS

pytestmark = pytest.mark.slow  # grades a class of hostile notebooks

SOLUTIONS = hostile.ROOT / "solutions"


def grade(*args: str | Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([str(arg) for arg in args])
    return code, out.getvalue()


def statuses_by_folder(report: str) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in report.splitlines():
        if not line.startswith(" ") and line.split():
            current = found.setdefault(Path(line.split()[0]).parent.name, {})
        for status in ("passed", "failed", "not attempted"):
            if line.startswith(f"  {status} "):
                current[line[len(status) + 2:].split()[0]] = status
    return found


@pytest.fixture(scope="module")
def in_process_attacks(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("hostile")
    paths = []
    for attack in hostile.ATTACKS:
        name, notebook = hostile.attacked(attack)
        paths.append(hostile.save(root / attack, notebook, name))
    # As an instructor runs it: its command line names the solutions (one attack reads it).
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade", *map(str, paths),
                           "--solutions", str(SOLUTIONS), "--jobs", "2", "--timeout", "20"],
                          capture_output=True, text=True, timeout=600, cwd=hostile.ROOT)
    return {"report": done.stdout + done.stderr, "statuses": statuses_by_folder(done.stdout)}


@pytest.mark.parametrize("attack", sorted(hostile.ATTACKS))
def test_an_attack_from_inside_the_students_process_gets_no_credit(in_process_attacks: dict,
                                                                   attack: str) -> None:
    found = in_process_attacks["statuses"][attack]
    wrong = hostile.wrong_exercises(attack)
    assert {exercise: found[exercise] for exercise in wrong} == dict.fromkeys(wrong, "failed"), \
        in_process_attacks["report"]


def _processes_of_uids(uids: range) -> list[int]:
    """Running processes of any worker's user id (zombies have ended)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields["State"].split()[0] != "Z" and int(fields["Uid"].split()[0]) in uids:
            found.append(int(pid))
    return found


@pytest.mark.skipif(os.geteuid() != 0, reason="contains workers only as root")
def test_a_batch_with_attackers_loses_no_report_and_credits_none(tmp_path: Path) -> None:
    """Attackers first, honest students after, at --jobs 2: every student's report is there
    and right, the attackers get nothing, the CSV and JSON are the grader's and stay so, no
    process of a worker outlives the run, and the solutions are as they were."""
    solutions = tmp_path / "solutions"
    shutil.copytree(SOLUTIONS, solutions)
    before = {path: path.read_bytes() for path in solutions.rglob("*") if path.is_file()}
    class_folder = tmp_path / "submitted"
    paths = [hostile.save(class_folder / attack / hostile.NAME.removesuffix(".ipynb"),
                          hostile.hostile(code)) for attack, code in hostile.CLASS_ATTACKS.items()]
    honest = {}
    for index in range(6):
        student = f"student{index}"
        notebook = hostile.worked() if index % 2 else hostile.hostile("pass")
        honest[student] = "passed" if index % 2 else "failed"
        paths.append(hostile.save(class_folder / student / hostile.NAME.removesuffix(".ipynb"),
                                  notebook))
    csv_path, json_path = tmp_path / "grades.csv", tmp_path / "grades.json"
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade", *map(str, paths),
                           "--solutions", str(solutions), "--jobs", "2", "--timeout", "30",
                           "--csv", str(csv_path), "--json", str(json_path)],
                          capture_output=True, text=True, timeout=900, cwd=hostile.ROOT)
    assert done.returncode == 1, done.stdout + done.stderr
    rows = json.loads(json_path.read_text())
    by_student: dict[str, set[str]] = {}
    for row in rows:
        by_student.setdefault(row["student"], set()).add(row["status"])
    for student, status in honest.items():
        assert by_student[student] == {status}, done.stdout
    for attack in hostile.CLASS_ATTACKS:
        assert by_student[attack] == {"failed"}, done.stdout
    written = csv_path.read_bytes(), json_path.read_bytes()
    time.sleep(3)  # a daemon would have rewritten them by now
    assert (csv_path.read_bytes(), json_path.read_bytes()) == written
    assert _processes_of_uids(range(DEFAULT_UIDS[0], DEFAULT_UIDS[1] + 1)) == []
    assert {path: path.read_bytes() for path in solutions.rglob("*") if path.is_file()} == before


def test_predictions_got_by_running_the_code_are_refused(tmp_path: Path) -> None:
    """The notebook asks for predictions made before running anything: an answer cell that
    runs the printed code (or any code) is refused, right values or not; plain values pass."""
    notebook = hostile.worked()
    cells = hostile.answer_cells(notebook)
    cells["03-both-orders"]["source"] = (
        "def _run(first, second):\n    x = torch.tensor(2.0, requires_grad=True)\n"
        "    y, z = x ** 2, x ** 3\n    prints = []\n"
        "    for loss in ((y, z) if first == 'y' else (z, y)):\n"
        "        loss.backward(retain_graph=True)\n        prints.append(x.grad.item())\n"
        "    return prints\nboth_orders = _run('y', 'z') + _run('z', 'y')")
    cells["03-loop"]["source"] = "after_loop = [3.0 * 4, 12.0]  # four passes of 3 each"
    code, report = grade(hostile.save(tmp_path, notebook), "--solutions", SOLUTIONS)
    found = statuses_by_folder(report)[tmp_path.name]
    assert found["03-both-orders"] == "failed" and found["03-loop"] == "passed", report
    assert "must hold values only" in report and "runs code" in report


# ---- The second round: a class aimed at the judge's design (hostile_notebooks.ROUND_2) -------

@pytest.fixture(scope="module")
def round_2(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One class, graded once at --jobs 2 from / with --csv and --json: every attack of
    ROUND_2, the misconceptions, the right answers written otherwise, the probes and the odd
    names, each in a folder of its own."""
    root = tmp_path_factory.mktemp("round_2")
    made: dict[str, tuple[Path, tuple[str, ...], tuple[str, ...]]] = {}  # (notebook, wrong, right)
    for name, attack in hostile.ROUND_2.items():
        made[name] = (hostile.save(root / "attacks" / name, hostile.round_2_notebook(attack),
                                   attack.notebook), hostile.wrong_in(attack), ())
    for kind, table in (("misconceptions", hostile.MISCONCEPTIONS),
                        ("right", hostile.RIGHT_OTHERWISE)):
        for notebook, answers in hostile.by_notebook(table).items():
            attack = hostile.Attack(notebook, answers, wrong=())
            wrong, right = (tuple(answers), ()) if kind == "misconceptions" else ((), tuple(answers))
            made[f"{kind} {notebook}"] = (hostile.save(root / kind / notebook.removesuffix(
                ".ipynb"), hostile.round_2_notebook(attack), notebook), wrong, right)
    for name, source in hostile.PROBES.items():
        made[f"probe {name}"] = (hostile.save(root / "probes" / name, hostile.round_2_notebook(
            hostile.Attack(hostile.NAME, {"03-loop": source}))), ("03-loop",), ())
    for name, (student, file) in hostile.ODD_NAMES.items():
        folder = root / "submitted" / (os.fsdecode(student) if isinstance(student, bytes)
                                       else student) / hostile.NAME.removesuffix(".ipynb")
        made[f"name {name}"] = (hostile.save(folder, hostile.worked(), file), (),
                                tuple(hostile.WRONG))
    csv_path, json_path = root / "grades.csv", root / "grades.json"
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade",
                           *(str(path) for path, _, _ in made.values()),
                           "--solutions", str(SOLUTIONS), "--jobs", "2", "--timeout", "20",
                           "--csv", str(csv_path), "--json", str(json_path)],
                          capture_output=True, timeout=1800, cwd="/")
    rows = json.loads(json_path.read_text(encoding="utf-8")) if json_path.exists() else []
    by_notebook: dict[str, dict[str, dict]] = {}
    for row in rows:
        by_notebook.setdefault(row["notebook"], {})[row["exercise"]] = row
    return {"done": done, "made": made, "rows": by_notebook, "csv": csv_path,
            "report": done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8",
                                                                                   "replace")}


def _rows_of(round_2: dict, name: str) -> dict[str, dict]:
    path, _, _ = round_2["made"][name]
    return round_2["rows"].get(str(path), {})


ROUND_2_NAMES = [*hostile.ROUND_2, *(f"misconceptions {nb}" for nb in hostile.by_notebook(
    hostile.MISCONCEPTIONS)), *(f"right {nb}" for nb in hostile.by_notebook(
        hostile.RIGHT_OTHERWISE)), *(f"probe {name}" for name in hostile.PROBES),
    *(f"name {name}" for name in hostile.ODD_NAMES)]


@pytest.mark.parametrize("name", ROUND_2_NAMES)
def test_round_2_no_credit_for_a_wrong_answer_and_every_notebook_judged(round_2: dict,
                                                                        name: str) -> None:
    """Graded, not "could not be graded" (the grader's own failure), whatever the notebook
    did; no wrong answer passes; every right one does."""
    found = _rows_of(round_2, name)
    _, wrong, right = round_2["made"][name]
    assert found and "" not in found, round_2["report"][-3000:]
    assert {e: found[e]["status"] for e in wrong if found[e]["status"] == "passed"} == {}, \
        round_2["report"][-3000:]
    assert {e: found[e]["status"] for e in right} == dict.fromkeys(right, "passed"), \
        {e: found[e]["message"] for e in right}


def test_round_2_the_class_is_graded_whole(round_2: dict) -> None:
    """Exit status 1 (every notebook graded, some exercise failed), and the CSV and JSON
    written: no notebook of the class took the run down."""
    assert round_2["done"].returncode == 1, round_2["report"][-3000:]
    assert round_2["csv"].exists() and round_2["rows"]


def _found(round_2: dict, probe: str) -> dict:
    message = _rows_of(round_2, f"probe {probe}")["03-loop"]["message"]
    return json.loads(message.split("FOUND ", 1)[1].split(" ... (")[0])


@pytest.mark.skipif(os.geteuid() != 0, reason="contains workers only as root")
def test_round_2_a_worker_reaches_nothing(round_2: dict) -> None:
    found = _found(round_2, "reach")
    assert set(found["writes"].values()) <= {"PermissionError", "OSError"}, found
    assert (found["user_namespace"], found["setuid_root"], found["trace_first"],
            found["chroot"]) == (-1, -1, -1, -1), found
    assert found["su"] != 0 and found["mount"] != 0, found
    assert set(found["environment"]) <= {"HOME", "IPYTHONDIR", "LANG", "MINIGRAD_GRADING",
                                         "MKL_NUM_THREADS", "OMP_NUM_THREADS",
                                         "OPENBLAS_NUM_THREADS", "PATH",
                                         "PYTHONDONTWRITEBYTECODE", "TMPDIR"}, found
    assert len(found["processes"]) <= 2 and not found["sys"], found


@pytest.mark.skipif(os.geteuid() != 0, reason="contains workers only as root")
def test_round_2_a_worker_has_no_children_to_hold_memory(round_2: dict) -> None:
    """The memory limit is per process: a worker that could fork would hold --memory in each
    child (63 children of 2 GB before this limit)."""
    assert _found(round_2, "children_memory") == {"fork": "BlockingIOError", "children": 0}


def test_round_2_names_write_no_line_of_the_report(round_2: dict) -> None:
    """Folder and file names (newlines, escape sequences, bidi marks, bytes that are no UTF-8)
    and exception messages are shown as escapes: the report holds no character a terminal
    acts on, every line is one of its own, and the CSV starts no formula."""
    out = round_2["done"].stdout.decode("utf-8")  # no byte that is not UTF-8 either
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
    for line in out.splitlines():
        assert line.startswith(("  ", "student ", "total: ", "workers: ", "error: ")) or \
            "  (checks from " in line, line
    with round_2["csv"].open(encoding="utf-8", newline="") as stream:
        cells = [cell for row in csv.reader(stream) for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@"))]
    students = {row["student"] for rows in round_2["rows"].values() for row in rows.values()}
    assert {os.fsdecode(s) if isinstance(s, bytes) else s
            for s, _ in hostile.ODD_NAMES.values()} <= students


# ---- What the second round's fixes read before grading (plan.py, __main__.notebooks) --------

def test_a_notebook_too_large_to_hold_is_refused_unread(tmp_path: Path) -> None:
    """A class is held in memory before grading: a file past MAX_FILE is refused from its size
    alone (a sparse file: no byte is read), and so is one whose cells hold past MAX_CODE, or
    that has past MAX_CELLS cells (each would run in the worker, up to the timeout)."""
    from minigrad_course.grade.plan import MAX_CELLS, MAX_CODE, MAX_FILE, Unreadable, load, read

    huge = tmp_path / "huge.ipynb"
    with huge.open("wb") as stream:
        stream.truncate(MAX_FILE + 1)
    with pytest.raises(Unreadable, match="clear its outputs"):
        read(huge)
    notebook = hostile.worked()
    notebook["cells"].append(hostile.code_cell("x = 1\n" * (MAX_CODE // 6 + 1)))
    with pytest.raises(Unreadable, match="MB of text"):
        load(tmp_path / "long.ipynb", json.dumps(notebook).encode())
    notebook = hostile.worked()
    notebook["cells"] += [hostile.code_cell("") for _ in range(MAX_CELLS)]
    with pytest.raises(Unreadable, match="cells, more than"):
        load(tmp_path / "many.ipynb", json.dumps(notebook).encode())


def test_outputs_are_not_kept_for_grading() -> None:
    from minigrad_course.grade.plan import stripped

    notebook = hostile.worked()
    notebook["cells"][0]["outputs"] = [{"output_type": "stream", "text": "x" * 100_000}]
    kept = json.loads(stripped(notebook))
    assert all("outputs" not in cell for cell in kept["cells"])
    assert [cell["source"] for cell in kept["cells"]] == [cell["source"] for cell in
                                                           notebook["cells"]]


def test_an_old_notebook_is_told_why_it_has_no_checks(tmp_path: Path) -> None:
    """nbformat 3 (Jupyter before 2015) and exercises numbered as an older course numbered
    them get a message that says so, not 'not a notebook of this course'."""
    from minigrad_course.grade.plan import Unreadable, load, not_of_this_course

    with pytest.raises(Unreadable, match="nbformat 3"):
        load(tmp_path / "old.ipynb", json.dumps({"worksheets": [], "nbformat": 3}).encode())
    notebook = json.loads((SOLUTIONS / "ex08_inplace.ipynb").read_text(encoding="utf-8"))
    for cell in hostile.answer_cells(notebook).values():
        cell["metadata"]["nbgrader"]["grade_id"] = "07" + \
            cell["metadata"]["nbgrader"]["grade_id"][2:]
    error = not_of_this_course(tmp_path / "ex07_inplace.ipynb", notebook, SOLUTIONS)
    assert "ex08_inplace.ipynb in an older version of the course" in str(error), error
    error = not_of_this_course(tmp_path / "x.ipynb", {"cells": []}, SOLUTIONS)
    assert "not a notebook of this course" in str(error), error


def test_a_class_folder_is_graded_from_the_notebooks_below_it(tmp_path: Path) -> None:
    """nbgrader's submitted/<student>/<assignment>/: the folder has no notebook of its own, so
    the ones below it are graded; checkpoints in hidden folders are not."""
    from minigrad_course.grade.__main__ import notebooks

    for student in ("bob", "alice"):
        hostile.save(tmp_path / "submitted" / student / "ex03", hostile.worked())
    hostile.save(tmp_path / "submitted" / "alice" / "ex03" / ".ipynb_checkpoints",
                 hostile.worked())
    found = notebooks([tmp_path / "submitted"])
    assert [path.relative_to(tmp_path).parts[:2] for path in found] == [
        ("submitted", "alice"), ("submitted", "bob")]
    own = hostile.save(tmp_path / "flat", hostile.worked())
    hostile.save(tmp_path / "flat" / "below", hostile.worked())
    assert notebooks([tmp_path / "flat"]) == [own]


def test_a_submission_that_leads_elsewhere_is_refused_and_the_class_graded(
        tmp_path: Path) -> None:
    """The grader runs as root: a student's notebook that is a link to solutions/ (or sits in a
    folder linked into it) was graded as the solutions, full marks; one that is a named pipe
    held the whole class's run forever at its first read. Each is refused with a reason, and
    the honest student after them is graded."""
    target = SOLUTIONS / hostile.NAME
    pipe = tmp_path / "pipe" / hostile.NAME
    pipe.parent.mkdir()
    os.mkfifo(pipe)
    link = tmp_path / "link" / hostile.NAME
    link.parent.mkdir()
    link.symlink_to(target)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "ex03").symlink_to(SOLUTIONS, target_is_directory=True)
    linked_folder = tmp_path / "folder" / "ex03" / hostile.NAME
    honest = hostile.save(tmp_path / "honest", hostile.worked())
    json_path = tmp_path / "grades.json"
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade", str(pipe), str(link),
                           str(linked_folder), str(honest), "--solutions", str(SOLUTIONS),
                           "--json", str(json_path)],
                          capture_output=True, text=True, timeout=300, cwd=hostile.ROOT)
    report = done.stdout + done.stderr
    assert f"{pipe}: not a file" in report and f"{link}: a symbolic link" in report, report
    assert f"{linked_folder}: the solutions notebook itself" in report, report
    statuses = {(row["notebook"], row["status"]) for row in json.loads(json_path.read_text())}
    assert {status for notebook, status in statuses if notebook != str(honest)} == {"error"}
    assert {status for notebook, status in statuses if notebook == str(honest)} == {"passed"}
