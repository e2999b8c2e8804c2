"""Hostile notebooks (tests/hostile_notebooks.py) graded as a class, --jobs 2: every attack on
the grader from inside the student's process, and every attack on the class from a worker,
gets no credit, and takes nothing from anyone else (issue 30). Each of these notebooks got
credit for wrong answers from the grader that ran the checks in the student's process."""
from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

import hostile_notebooks as hostile
from minigrad_course.grade.__main__ import main

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
