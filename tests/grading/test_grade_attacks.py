"""The grader against notebooks written to fool it or to harm the class: each attack must fail
(or be reported as tampering), every other notebook graded with it must keep its grade, and the
course's files must be left as they were. The answers in solutions/ passing is
test_solutions.py's.

Most attacks are graded in one folder run (one kernel each, --jobs 2), as an instructor would
grade a class: the module-scoped fixture grades them once and the tests read the report."""
from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
from pathlib import Path

import pytest

from minigrad_course.checks import markers
from minigrad_course.grade.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
NAME = "ex03_accumulation.ipynb"
pytestmark = [pytest.mark.slow,  # runs the grader on each attack
              pytest.mark.skipif(not (SOLUTIONS / NAME).is_file(), reason="no solutions")]

WRONG = {
    "03-both-orders": "both_orders = [4.0, 12.0, 12.0, 4.0]",
    "03-loop": "after_loop = [3.0, 3.0]",
    "03-two-losses": ("def gradients_of_two_losses(w):\n    (w * 2).sum().backward()\n"
                      "    grad_a = w.grad.clone()\n    (w ** 2).sum().backward()\n"
                      "    return grad_a, w.grad"),
    "03-micro-batches": "def accumulate_gradient(w, inputs, targets, micro_batch_size):\n    pass",
}
FIRST = "03-both-orders"  # the answer cell each attack's code goes into, above a wrong answer

# name -> code put in the first answer cell, every answer being wrong
ATTACKS = {
    "custom_exc": "get_ipython().set_custom_exc((BaseException,), lambda *a, **k: None)",
    "noop_check": ("class Anything:\n    def __getattr__(self, name):\n"
                   "        return lambda *args, **kwargs: None\n\ncheck = Anything()"),
    "patched_check_module": (
        "import minigrad_course.checks.accumulation as real\n"
        "for name in dir(real):\n    if not name.startswith('_'):\n"
        "        setattr(real, name, lambda *args, **kwargs: print('✓ all good'))"),
    "patched_numpy": "import numpy\nnumpy.allclose = lambda *a, **k: True",
    "patched_minigrad": ("import minigrad\n"
                         "minigrad.Tensor.__eq__ = lambda self, other: True\n"
                         "minigrad.Tensor.tolist = lambda self: [12.0, 12.0]"),
    "patched_tolerance": ("from minigrad_course.checks import _feedback\n"
                          "_feedback.TOLERANCE = 1e9"),
    "emptied_cells": "get_ipython().input_transformers_cleanup.append(lambda lines: [])",
    # each check cell rewritten into as many forged successes as it has checks
    "forged_cells": (
        "from minigrad_course.checks._feedback import succeed as _ok\n"
        "def _swap(lines):\n"
        "    calls = sum(line.startswith('check.') for line in lines)\n"
        "    return [\"_ok('fine')\\n\"] * calls if calls else lines\n"
        "get_ipython().input_transformers_cleanup.append(_swap)"),
    "check_class_patched": (  # a method added to a class: its failures are never seen
        "from minigrad_course.checks import _feedback\n"
        "def _blind(self, name):\n"
        "    if name == 'failures':\n        return []\n"
        "    return object.__getattribute__(self, name)\n"
        "_feedback.Checks.__getattribute__ = _blind"),
    "check_init_replaced": (  # a dunder replaced: every failure recorded goes nowhere
        "from minigrad_course.checks import _feedback\n"
        "_real_init = _feedback.Checks.__init__\n"
        "class _Sink(list):\n    def append(self, item):\n        pass\n"
        "def _init(self, *args, **kwargs):\n"
        "    _real_init(self, *args, **kwargs)\n    self.failures = _Sink()\n"
        "_feedback.Checks.__init__ = _init"),
    "forged_success": ("get_ipython().events.register('post_run_cell', "
                       "lambda result: print('✓ both orders are right'))"),
    "reload_patched": ("import importlib, minigrad_course.checks.accumulation as m\n"
                       "importlib.reload(m)"),
}


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def answer_cells(notebook: dict) -> dict[str, dict]:
    return {markers.grade_id(cell): cell for cell in notebook["cells"] if markers.is_answer(cell)}


def worked() -> dict:
    return copy.deepcopy(load(SOLUTIONS / NAME))


def wrong(prefix: str = "") -> dict:
    notebook = worked()
    for grade_id, cell in answer_cells(notebook).items():
        cell["source"] = WRONG[grade_id]
    cell = answer_cells(notebook)[FIRST]
    cell["source"] = prefix + "\n" + cell["source"]
    return notebook


def save(folder: Path, notebook: dict | str, name: str = NAME) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    text = notebook if isinstance(notebook, str) else json.dumps(notebook)
    path.write_text(text, encoding="utf-8")
    return path


def grade(*args: str | Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([str(arg) for arg in args])
    return code, out.getvalue()


def blocks(report: str) -> dict[str, list[str]]:
    """The report's lines per notebook, keyed by the notebook's folder name."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for line in report.splitlines():
        if line.startswith(("total:", "workers:")):
            continue
        if not line.startswith(" "):
            folder = Path(line.split()[1 if line.startswith("error:") else 0].rstrip(":")).parent
            current = found.setdefault(folder.name, [])
        current.append(line)
    return found


def statuses(lines: list[str]) -> dict[str, str]:
    found = {}
    for line in lines:
        for status in ("passed", "failed", "not attempted"):
            if line.startswith(f"  {status} "):
                found[line[len(status) + 2:].split()[0]] = status
    return found


def digest(folder: Path) -> str:
    files = sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)
    return hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()


@pytest.fixture(scope="module")
def class_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every attack of ATTACKS, and the class-level ones, graded in one run."""
    root = tmp_path_factory.mktemp("class")
    paths = [save(root / name, wrong(code)) for name, code in ATTACKS.items()]
    # alice deletes bob's notebook (and her own); bob handed in the worked answers
    bob = root / "bob" / NAME
    alice = wrong(f"import os\nos.remove({str(bob)!r})\nos.remove({NAME!r})")
    paths += [save(root / "alice", alice), save(root / "bob", worked())]
    # carol appends to the checks so that every later answer passes; dave's answers are wrong
    carol = wrong("import minigrad_course.checks.accumulation as m\n"
                  "with open(m.__file__, 'a') as out:\n"
                  "    out.write('\\ndef loop(x):\\n    print(\"✓ fine\")\\n')")
    paths += [save(root / "carol", carol), save(root / "dave", wrong())]
    # exit() and a killed kernel in 03-loop, every other answer worked
    for name, code in (("exits", "exit()"), ("kills", "import os\nos.kill(os.getpid(), 9)")):
        notebook = worked()
        answer_cells(notebook)["03-loop"]["source"] = "after_loop = [12.0, 12.0]\n" + code
        paths.append(save(root / name, notebook))
    # a 5 MB exception message, from an answer cell and from code a check runs
    huge = worked()
    answer_cells(huge)["03-loop"]["source"] = "raise ValueError('x' * 5_000_000)"
    answer_cells(huge)["03-micro-batches"]["source"] = (
        "def accumulate_gradient(w, inputs, targets, micro_batch_size):\n"
        "    raise ValueError('y' * 5_000_000)")
    paths.append(save(root / "huge", huge))
    # an answer split in two by JupyterLab (the second half keeps the metadata, new id)
    split = worked()
    cells = split["cells"]
    first = answer_cells(split)["03-micro-batches"]
    lines = markers.source_of(first).split("\n")
    second = copy.deepcopy(first)
    second["id"] = "f00dcafe"
    first["source"], second["source"] = "\n".join(lines[:3]), "\n".join(lines[3:])
    cells.insert(cells.index(first) + 1, second)
    paths.append(save(root / "split", split))
    # memory and disk without end: 3 GiB in 03-loop, a 200 MB file in 03-two-losses
    hog = worked()
    answer_cells(hog)["03-loop"]["source"] = "hoard = bytearray(3 << 30)\nafter_loop = [12.0, 12.0]"
    answer_cells(hog)["03-two-losses"]["source"] = (
        "with open('big.bin', 'wb') as out:\n    out.write(bytes(200 << 20))\n" +
        markers.source_of(answer_cells(hog)["03-two-losses"]))
    paths.append(save(root / "hog", hog))
    # a renamed copy, graded with --solutions
    paths.append(save(root / "renamed", worked(), "ex03_accumulation-Copy1.ipynb"))
    # malformed notebooks among good ones
    for name, damage in (("nbgrader_string", lambda c: c["metadata"].update(nbgrader="yes")),
                         ("metadata_list", lambda c: c.update(metadata=["solution"])),
                         ("source_number", lambda c: c.update(source=3))):
        notebook = worked()
        damage(answer_cells(notebook)["03-loop"])
        paths.append(save(root / name, notebook))
    paths.append(save(root / "invalid_json", '{"cells": [{"cell_type": "code",'))

    checks = ROOT / "minigrad_course"
    before = digest(checks)
    code, report = grade(*paths, "--solutions", SOLUTIONS, "--jobs", "2", "--timeout", "20")
    return {"code": code, "report": report, "blocks": blocks(report), "root": root,
            "course_unchanged": digest(checks) == before, "bob": bob}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_an_attack_passes_nothing(class_run: dict, attack: str) -> None:
    lines = class_run["blocks"][attack]
    assert statuses(lines) == dict.fromkeys(WRONG, "failed"), "\n".join(lines)
    assert "✓" not in "\n".join(lines)


@pytest.mark.parametrize("attack", ["patched_numpy", "patched_minigrad",
                                    "patched_tolerance", "reload_patched", "check_class_patched",
                                    "check_init_replaced", "noop_check", "custom_exc",
                                    "forged_cells", "forged_success"])
def test_patching_the_worker_reaches_no_verdict(class_run: dict, attack: str) -> None:
    """Whatever the notebook replaced in its own process, the judge computes the verdicts in
    its own: each wrong answer is told its own mistake, the attack's cell that it is code."""
    lines = {line.split()[1]: line for line in class_run["blocks"][attack][1:-1]
             if line.startswith("  failed")}
    report = "\n".join(class_run["blocks"][attack])
    assert "must hold values only" in lines["03-both-orders"], report
    assert "grad_b is not the gradient of loss_b alone" in report, report
    assert "w.grad is still None" in report, report


def test_a_check_that_never_ran_is_not_a_pass(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Without solutions/ the notebook's own check cells say which checks to call: emptied,
    they call none, and nothing passes."""
    monkeypatch.chdir(tmp_path)  # no course folder above: no solutions/ to take checks from
    notebook = wrong()
    for cell in notebook["cells"]:
        if markers.is_check(cell):
            cell["source"] = "pass"
    _, report = grade(save(tmp_path / "emptied", notebook), "--timeout", "20")
    lines = blocks(report)["emptied"]
    assert statuses(lines) == dict.fromkeys(WRONG, "failed"), "\n".join(lines)
    assert "its check cell calls no check of this course" in "\n".join(lines)


def test_a_rebound_check_is_the_real_one_again(class_run: dict) -> None:
    """`check` is bound again to the check module: the real checks fail the wrong answers."""
    report = "\n".join(class_run["blocks"]["noop_check"])
    assert "tampered" not in report and "✗" in report, report


def test_a_classmate_deleting_files_changes_no_grade(class_run: dict) -> None:
    """alice's worker does not even see bob's file (a file system of its own), nor her own
    notebook's original."""
    assert class_run["bob"].exists(), "bob's file is gone from disk"
    assert statuses(class_run["blocks"]["bob"]) == dict.fromkeys(WRONG, "passed")
    assert statuses(class_run["blocks"]["alice"]) == dict.fromkeys(WRONG, "failed")


def test_appending_to_the_checks_reaches_no_one(class_run: dict) -> None:
    assert class_run["course_unchanged"], "a notebook changed minigrad_course's files"
    for student in ("carol", "dave"):
        assert statuses(class_run["blocks"][student]) == dict.fromkeys(WRONG, "failed")


@pytest.mark.parametrize("student, blamed", [("exits", "your answer cell called exit()"),
                                             ("kills", "your answer cell killed the kernel")])
def test_exit_and_a_killed_kernel_are_blamed_on_their_cell(class_run: dict, student: str,
                                                           blamed: str) -> None:
    lines = class_run["blocks"][student]
    assert statuses(lines) == {"03-both-orders": "passed", "03-loop": "failed",
                               "03-two-losses": "passed", "03-micro-batches": "passed"}, lines
    assert blamed in next(line for line in lines if "03-loop" in line)


def test_the_same_report_every_run(class_run: dict) -> None:
    for student in ("exits", "kills"):
        code, report = grade(class_run["root"] / student / NAME, "--solutions", SOLUTIONS)
        assert report.splitlines()[1:-1] == class_run["blocks"][student][1:], report


def test_huge_messages_are_capped(class_run: dict) -> None:
    lines = class_run["blocks"]["huge"]
    assert statuses(lines)["03-loop"] == "failed" and \
        statuses(lines)["03-micro-batches"] == "failed", lines
    assert max(map(len, lines)) < 2_500, [len(line) for line in lines]
    assert "more characters" in "\n".join(lines)


def test_memory_and_file_size_are_limited(class_run: dict) -> None:
    lines = class_run["blocks"]["hog"]
    assert statuses(lines) == {"03-both-orders": "passed", "03-loop": "failed",
                               "03-two-losses": "failed", "03-micro-batches": "passed"}, lines
    report = "\n".join(lines)
    assert "MemoryError" in report and "File too large" in report, report


def test_split_answer_cells_are_graded_together(class_run: dict) -> None:
    assert statuses(class_run["blocks"]["split"]) == dict.fromkeys(WRONG, "passed")


def test_a_renamed_notebook_is_matched_to_its_solutions(class_run: dict) -> None:
    lines = class_run["blocks"]["renamed"]
    assert "checks from" in lines[0] and "ex03_accumulation.ipynb" in lines[0]
    assert "matched by its exercises" in lines[0]
    assert statuses(lines) == dict.fromkeys(WRONG, "passed")
    assert "Uneven micro-batches" in "\n".join(lines), "the hidden test ran"


@pytest.mark.parametrize("student", ["nbgrader_string", "metadata_list", "source_number",
                                     "invalid_json"])
def test_a_malformed_notebook_is_one_line_among_the_others(class_run: dict,
                                                           student: str) -> None:
    lines = class_run["blocks"][student]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert class_run["code"] == 2, "a notebook that cannot be graded makes the exit code 2"
    graded = [name for name, block in class_run["blocks"].items() if len(block) > 1]
    assert len(graded) == len(ATTACKS) + 10, "every other notebook has its report"


def test_a_renamed_notebook_in_the_course_without_solutions_option(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside the course, no --solutions: matched by its exercises, not its own checks."""
    monkeypatch.chdir(ROOT)
    path = save(tmp_path, worked(), "my_homework.ipynb")
    code, report = grade(path)
    assert "checks from" in report.splitlines()[0] and "solutions" in report.splitlines()[0]
    assert "matched by its exercises" in report.splitlines()[0]
    assert code == 0, report


def test_a_notebook_has_a_time_limit(tmp_path: Path) -> None:
    notebook = worked()
    # Each sleep alone is well within the limit, the two together are not; the 5 s left beside
    # the first sleep are for the worker's start on a loaded machine. The first sleeps in a
    # cell of the learner's own before 03-two-losses, the second in 03-two-losses.
    cell = answer_cells(notebook)["03-two-losses"]
    cell["source"] = "import time\ntime.sleep(7)\n" + markers.source_of(cell)
    notebook["cells"].insert(notebook["cells"].index(cell), {
        "cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
        "source": "import time\ntime.sleep(7)"})
    path = save(tmp_path, notebook)
    code, report = grade(path, "--solutions", SOLUTIONS, "--notebook-timeout", "12")
    found = statuses(report.splitlines())
    assert found == {"03-both-orders": "passed", "03-loop": "passed", "03-two-losses": "failed",
                     "03-micro-batches": "failed"}, report
    assert "the whole notebook may run 12 s" in report
    assert "not run: the notebook used up its 12 s" in report
    assert code == 1
