"""Hostile notebooks (tests/hostile_notebooks.py) graded as a class, --jobs 2: every attack on
the grader from inside the student's process, and every attack on the class from a worker,
gets no credit, and takes nothing from anyone else (issue 30). Each of these notebooks got
credit for wrong answers from the grader that ran the checks in the student's process."""
from __future__ import annotations

import contextlib
import io
import json
import os
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
