"""The grader (`python -m minigrad_course.grade`) on the shipped exercises, on the solutions and
on notebooks broken the way learners break them; and every check against a wrong answer.

Each notebook graded costs a kernel start (a fresh process, about 0.2 s of CPU). pytest runs
this file on one xdist worker (--dist=loadfile), so the folders are graded with --jobs 2, two
kernels at a time. tests/grading/test_grade_attacks.py tries notebooks written to cheat."""
from __future__ import annotations

import contextlib
import copy
import importlib
import io
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from minigrad_course.checks import _notebook, markers
from minigrad_course.checks._feedback import CheckFailed, NotAnswered
from minigrad_course.grade import grade_this_notebook, this_notebook
from minigrad_course.grade.__main__ import main
from minigrad_course.grade import grader
from minigrad_course.grade.worker import Session
from minigrad_course.grade.plan import make_plan
from minigrad_course.grade.this_notebook import SKIPPED, UNSAVED, ran_since_saved

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"
NAMES = sorted(path.name for path in SOLUTIONS.glob("*.ipynb"))
pytestmark = pytest.mark.skipif(not NAMES, reason="no solutions notebooks")


def grade(*args: str | Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([str(arg) for arg in args])
    return code, out.getvalue()


def statuses(report: str) -> dict[str, str]:
    """exercise grade_id -> "passed" / "failed" / "not attempted", read from the report."""
    found = {}
    for line in report.splitlines():
        for status in ("passed", "failed", "not attempted"):
            if line.startswith(f"  {status} "):
                found[line[len(status) + 2:].split()[0]] = status
    return found


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def answer_ids(name: str) -> list[str]:
    return [markers.grade_id(cell) for cell in load(SOLUTIONS / name)["cells"]
            if markers.is_answer(cell)]


def all_answer_ids() -> list[str]:
    return [exercise for name in NAMES for exercise in answer_ids(name)]


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_shipped_exercises_are_not_attempted() -> None:
    """The one grading of each exercise notebook: nbval runs its cells but not its grading
    cell (tagged nbval-skip by the generator), whose report it would compare with nothing, an
    exercise storing no outputs."""
    code, report = grade(EXERCISES, "--jobs", "2")
    assert code == 1
    assert statuses(report) == dict.fromkeys(all_answer_ids(), "not attempted"), report
    total = len(all_answer_ids())
    assert f"total: 0 of {total} exercises passed in {len(NAMES)} notebooks" in report


def _cells_by_id(notebook: dict) -> dict[str, dict]:
    return {markers.grade_id(cell): cell for cell in notebook["cells"] if markers.grade_id(cell)}


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_a_broken_notebook_is_graded_exercise_by_exercise(tmp_path: Path) -> None:
    """05's four exercises, three broken differently, plus deleted read-only cells and a cell
    of the learner's that kills the kernel."""
    notebook = load(SOLUTIONS / "ex05_non_scalar_outputs.ipynb")
    cells = _cells_by_id(notebook)
    cells["05-weighted"]["source"] = "weighted_prints = [[2.0, 0.0, 60.0], 'error'"
    cells["05-mse"]["source"] = "mse_gradient = 1 / 0"
    cells["05-vjp"]["source"] = "while True:\n    pass"
    jacobian = cells["05-jacobian"]
    deleted = {"05-mse-check", "05-code-01"}  # a check cell and the import cell
    notebook["cells"] = [jacobian] + [cell for cell in notebook["cells"] if cell is not jacobian
                                      and markers.grade_id(cell) not in deleted]
    killer = {"cell_type": "code", "metadata": {}, "source": "import os\nos._exit(1)",
              "outputs": [], "execution_count": None}
    notebook["cells"].insert(notebook["cells"].index(cells["05-weighted"]) + 1, killer)
    path = tmp_path / "ex05_non_scalar_outputs.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")

    code, report = grade(path, "--solutions", SOLUTIONS, "--timeout", "5")
    assert code == 1
    assert statuses(report) == {"05-weighted": "failed", "05-mse": "failed",
                                "05-jacobian": "passed", "05-vjp": "failed"}, report
    lines = {line.split()[1]: line for line in report.splitlines()
             if line.startswith("  ") and len(line.split()) > 1}
    assert "SyntaxError" in lines["05-weighted"]
    assert "ZeroDivisionError" in lines["05-mse"]
    assert "ran longer than 5 s" in lines["05-vjp"]


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_learner_cells_timeouts_missing_answers_and_a_bad_file(tmp_path: Path) -> None:
    """04 with a helper cell of the learner's own, a deleted answer, a check that loops
    forever and a wrong answer, graded as a folder next to a file that is not JSON."""
    notebook = load(SOLUTIONS / "ex04_resetting_gradients.ipynb")
    cells = _cells_by_id(notebook)
    helper = {"cell_type": "code", "metadata": {}, "source": "nothing = None", "outputs": [],
              "execution_count": None}
    cells["04-zero-grad"]["source"] = "zero_grad_prints = [[0.0, 0.0], [3.0, 3.0], nothing]"
    cells["04-fit"]["source"] = "def fit(steps, lr):\n    while True:\n        pass"
    cells["04-sgd-step"]["source"] = ("def sgd_step(params, lr):\n    for p in params:\n"
                                      "        p -= lr * p.grad")
    notebook["cells"].remove(cells["04-kept"])
    notebook["cells"].insert(notebook["cells"].index(cells["04-zero-grad"]), helper)
    (tmp_path / "ex04_resetting_gradients.ipynb").write_text(json.dumps(notebook), "utf-8")
    (tmp_path / "99_broken.ipynb").write_text('{"cells": [', encoding="utf-8")

    code, report = grade(tmp_path, "--solutions", SOLUTIONS, "--timeout", "5")
    assert code == 2, "a notebook that cannot be read makes the exit code 2"
    assert statuses(report) == {"04-zero-grad": "passed", "04-kept": "not attempted",
                                "04-fit": "failed", "04-sgd-step": "failed"}, report
    assert "answer cell is missing" in report
    assert "the check ran longer than 5 s" in report
    assert "no_grad" in report, "the sgd_step check names the fix for the leaf error"
    assert "99_broken.ipynb: not a notebook, the file is not valid JSON" in report
    assert "total: 1 of 4 exercises passed in 2 notebooks" in report


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_without_solutions_beside_the_notebook_its_own_checks_are_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside any course (a student's folder on a hub): the notebook's own check cells."""
    monkeypatch.chdir(tmp_path)
    notebook = load(SOLUTIONS / "ex02_grad_is_none.ipynb")
    notebook["cells"] = [cell for cell in notebook["cells"]
                         if markers.grade_id(cell) != "02-outcomes-check"]
    path = tmp_path / "mine" / "my_copy.ipynb"  # a name solutions/ does not have
    path.parent.mkdir()
    path.write_text(json.dumps(notebook), encoding="utf-8")
    code, report = grade(path)
    assert code == 1
    assert "checks from the notebook itself" in report.splitlines()[0]
    assert statuses(report) == {"02-before-after": "passed", "02-outcomes": "failed",
                                "02-init": "passed", "02-who": "passed"}, report
    assert "its check cell is missing" in report


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_any_folder_any_path(tmp_path: Path) -> None:
    """From inside exercises/ with the bare file name, and from anywhere in the course with an
    absolute path to a copy named like an exercise: both are graded with the course's solutions.
    Outside any course, the copy is graded with its own checks (hidden tests aside). Which
    checks are used is the point, not whether they pass: the copies are unanswered exercises
    (the worked answers passing, in and outside a course, is test_solutions.py's and
    tests/deploy/test_wheel.py's)."""
    run = [sys.executable, "-m", "minigrad_course.grade"]
    inside = subprocess.run([*run, "ex02_grad_is_none.ipynb"], cwd=EXERCISES,
                            capture_output=True, text=True)
    assert inside.returncode == 1, inside.stderr
    assert inside.stdout.startswith("ex02_grad_is_none.ipynb  (checks from "
                                    "../solutions/ex02_grad_is_none.ipynb)"), inside.stdout
    copy_path = tmp_path / "ex03_accumulation.ipynb"
    copy_path.write_bytes((EXERCISES / "ex03_accumulation.ipynb").read_bytes())
    in_course = subprocess.run([*run, str(copy_path)], cwd=ROOT / "scripts",
                               capture_output=True, text=True)
    assert in_course.returncode == 1, in_course.stdout + in_course.stderr
    assert "(checks from ../solutions/ex03_accumulation.ipynb)" in in_course.stdout
    assert statuses(in_course.stdout) == dict.fromkeys(answer_ids(copy_path.name),
                                                       "not attempted"), in_course.stdout
    (tmp_path / "elsewhere").mkdir()
    elsewhere = subprocess.run([*run, str(copy_path)], cwd=tmp_path / "elsewhere",
                               capture_output=True, text=True)
    assert elsewhere.returncode == 1, elsewhere.stdout + elsewhere.stderr
    assert "(checks from the notebook itself: no solutions/ found" in elsewhere.stdout
    assert "0 of 4 exercises passed" in elsewhere.stdout


def test_missing_solutions_folder_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    code = main([str(EXERCISES / "ex03_accumulation.ipynb"), "--solutions", str(tmp_path / "no")])
    error = capsys.readouterr().err
    assert code == 2 and len(error.strip().splitlines()) == 1, error
    assert "no such folder" in error


def test_the_engine_does_not_import_the_course_tooling() -> None:
    code = ("import sys, minigrad, minigrad.viz\n"
            "loaded = [m for m in sys.modules if m.startswith('minigrad_course')]\n"
            "assert not loaded, loaded")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_untouched_bugs_unfinished_functions_and_crashes(tmp_path: Path) -> None:
    """A fix-the-bug answer that leaves the bug, and a function still raising
    NotImplementedError, are "not attempted" (not failures of code the learner did not write);
    a crash in the learner's code names the learner's line."""
    notebook = load(SOLUTIONS / "ex03_accumulation.ipynb")
    cells = _cells_by_id(notebook)
    cells["03-two-losses"]["source"] = "pass"
    cells["03-micro-batches"]["source"] = ("def accumulate_gradient(w, inputs, targets, size):\n"
                                           "    raise NotImplementedError()")
    cells["03-loop"]["source"] = ("def predict():\n    x = None\n    return x + 1\n\n"
                                  "after_loop = predict()")
    path = tmp_path / "ex03_accumulation.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    code, report = grade(path, "--solutions", SOLUTIONS)
    assert statuses(report) == {"03-both-orders": "passed", "03-loop": "failed",
                                "03-two-losses": "not attempted",
                                "03-micro-batches": "not attempted"}, report
    cells["03-micro-batches"]["source"] = ("def accumulate_gradient(w, inputs, targets, size):\n"
                                           "    w.grad += 1")
    path.write_text(json.dumps(notebook), encoding="utf-8")
    code, report = grade(path, "--solutions", SOLUTIONS)
    line = next(line for line in report.splitlines() if "03-micro-batches" in line)
    assert "raised TypeError" in line, report
    assert "at line 2 of your cell: w.grad += 1" in report
    assert "minigrad_course" not in report and "Traceback" not in report


@pytest.mark.parametrize("content", ["{not json", '{"cells": 3}', ""])
def test_unreadable_notebook_is_one_line_and_exit_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "ex03_accumulation.ipynb"
    path.write_text(content, encoding="utf-8")
    code, report = grade(path)
    assert code == 2
    assert len(report.strip().splitlines()) == 1 and report.startswith("error: ")


def test_missing_file_is_exit_2(tmp_path: Path) -> None:
    code, report = grade(tmp_path / "nope.ipynb")
    assert code == 2 and "no such file" in report


def test_import_minigrad_loads_no_jupyter_package() -> None:
    code = ("import sys, minigrad, minigrad_course.grade, minigrad_course.checks.accumulation"
            "\n"
            "loaded = [m for m in ('nbformat', 'nbclient', 'jupyter_client', 'IPython')"
            " if m in sys.modules]\nassert not loaded, loaded")
    subprocess.run([sys.executable, "-c", code], check=True)


# The grading cell at the end of every exercise notebook (minigrad_course/grade/this_notebook.py)
GRADING_CELL = "grade_this_notebook("


def grading_cell(notebook: dict) -> dict:
    return notebook["cells"][-1]


@pytest.mark.parametrize("name", NAMES)
def test_every_notebook_ends_with_its_grading_cell(name: str) -> None:
    """Read-only, naming its own file; in the solutions it stores a report of every exercise
    passed (test_solutions.py checks that grading gives that report), with no path and no
    timing in what it printed."""
    solution, exercise = load(SOLUTIONS / name), load(EXERCISES / name)
    for notebook in (solution, exercise):
        cell = grading_cell(notebook)
        assert markers.nbgrader(cell)["locked"] and not markers.nbgrader(cell)["grade"]
        assert f'{GRADING_CELL}"{name}")' in markers.source_of(cell)
    printed = "".join("".join(output.get("text", "")) for output in
                      grading_cell(solution)["outputs"])
    total = len(answer_ids(name))
    assert statuses(printed) == dict.fromkeys(answer_ids(name), "passed"), printed
    assert printed.startswith(f"{name} as last saved (press Ctrl+S before this cell)")
    assert printed.rstrip().endswith(f"  {total} of {total} exercises passed"), printed
    assert "/" not in printed.splitlines()[0] and not re.search(r"\d\.\d+ ?s\b", printed)


def test_grading_cell_on_an_untouched_exercise(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture) -> None:
    """As the kernel of exercises/ex03 runs it: every exercise not attempted, nothing raised."""
    monkeypatch.chdir(EXERCISES)
    grade_this_notebook("ex03_accumulation.ipynb")
    printed = capsys.readouterr().out
    assert statuses(printed) == dict.fromkeys(answer_ids("ex03_accumulation.ipynb"),
                                              "not attempted"), printed
    assert printed.rstrip().endswith("0 of 4 exercises passed") and UNSAVED not in printed


def test_grading_cell_does_nothing_inside_the_graders_kernel() -> None:
    """No recursion: the grader runs the grading cell (a read-only cell of the reference) in
    its own kernel, where it only says it is skipped; the count is test_solutions.py's."""
    notebook = load(SOLUTIONS / "ex03_accumulation.ipynb")
    plan = make_plan(notebook, notebook)
    assert GRADING_CELL in plan.steps[-1].source and plan.steps[-1].role == "code"
    data = (SOLUTIONS / "ex03_accumulation.ipynb").read_bytes()
    run = grader()
    session = Session(run.sandbox, run.library, ("ex03_accumulation.ipynb", data), [], 30,
                      300, 2048)
    try:  # the grading cell alone: it needs nothing the cells before it define
        outcome = session.ask({"source": plan.steps[-1].source})
    finally:
        session.close()
    assert outcome.error is None and outcome.printed.strip() == SKIPPED


def test_grading_cell_does_nothing_under_nbgrader(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture) -> None:
    """nbgrader's autograde and validate run every cell with NBGRADER_EXECUTION set."""
    def no_grading(*args, **kwargs):
        raise AssertionError("a grading started under nbgrader")

    monkeypatch.setattr(this_notebook, "grade_notebook", no_grading)
    for mode in ("autograde", "validate"):
        monkeypatch.setenv("NBGRADER_EXECUTION", mode)
        grade_this_notebook("ex03_accumulation.ipynb")
        assert capsys.readouterr().out.strip() == SKIPPED


def test_code_run_since_the_last_save_is_noticed(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell run after the save with code the file does not hold makes the report warn; a
    rerun of saved code, or code run before the save, does not."""
    notebook = load(SOLUTIONS / "ex03_accumulation.ipynb")
    path = tmp_path / "ex03_accumulation.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    saved_at = path.stat().st_mtime
    saved_code = markers.source_of(_cells_by_id(notebook)["03-loop"])
    runs = {saved_code + "\n": saved_at + 5, "after_loop = [1.0]": saved_at - 5}
    monkeypatch.setattr(_notebook, "last_run", runs)
    assert ran_since_saved(path, notebook) == []
    runs["after_loop = [12.0, 12.0]"] = saved_at + 5
    assert ran_since_saved(path, notebook) == ["after_loop = [12.0, 12.0]"]


# A wrong answer for every exercise (for a fix-the-bug exercise, a plausible half fix).
WRONG = {
    "01-leaves": "leaf_predictions = [True] * 10",
    "01-chain": "chain_names = ['AddBackward0', 'PowBackward0', 'MulBackward0', 'AccumulateGrad']",
    "01-build": "def build(a, b):\n    return (a + b) ** 2",
    "01-walk": "def reachable_nodes(t):\n    return [t.grad_fn]",
    "02-before-after": "before_after = [0.0, 5.0, None, 1.0]",
    "02-outcomes": "outcomes = [6.0, 6.0, None, 'error']",
    "02-init": ("def init_weights(n):\n    torch.manual_seed(0)\n"
                "    return (torch.randn(n) * 0.01).detach()"),
    "02-who": "def will_get_grad(t):\n    return t.requires_grad",
    "03-both-orders": "both_orders = [4.0, 12.0, 12.0, 4.0]",
    "03-loop": "after_loop = [3.0, 3.0]",
    "03-two-losses": (  # one of the two problems fixed: a copy, but .grad is never reset
        "def gradients_of_two_losses(w):\n    (w * 2).sum().backward()\n"
        "    grad_a = w.grad.clone()\n    (w ** 2).sum().backward()\n"
        "    return grad_a, w.grad"),
    "03-micro-batches": (
        "def accumulate_gradient(w, inputs, targets, size):\n"
        "    for s in range(0, len(inputs), size):\n"
        "        ((inputs[s:s + size] @ w - targets[s:s + size]) ** 2).mean().backward()"),
    "04-zero-grad": "zero_grad_prints = [None, [3.0, 3.0], None]",
    "04-kept": "saved_prints = [5.0, 5.0]",
    "04-fit": (  # resets w.grad but forgets b.grad
        "def fit(steps=100, lr=0.1):\n    xs = torch.linspace(-1, 1, 20)\n    ys = 3 * xs + 1\n"
        "    w = torch.tensor(0.0, requires_grad=True)\n"
        "    b = torch.tensor(0.0, requires_grad=True)\n    losses = []\n"
        "    for step in range(steps):\n        loss = ((w * xs + b - ys) ** 2).mean()\n"
        "        loss.backward()\n        with torch.no_grad():\n"
        "            w -= lr * w.grad\n            b -= lr * b.grad\n"
        "        w.grad = None\n        losses.append(loss.item())\n    return w, b, losses"),
    "04-sgd-step": "def sgd_step(params, lr):\n    pass",
    "05-weighted": "weighted_prints = [[2.0, 4.0, 6.0], 'error']",
    "05-mse": ("def mse_gradient(w, xs, ys):\n    ((xs @ w - ys) ** 2).sum().backward()\n"
               "    return w.grad"),
    "05-jacobian": ("def jacobian(f, x):\n    rows = []\n    for i in range(f(x).numel()):\n"
                    "        v = torch.zeros(f(x).numel())\n        v[i] = 1.0\n"
                    "        f(x).backward(v)\n        rows.append(x.grad.clone())\n"
                    "    return torch.stack(rows)"),
    "05-vjp": "def vjp_tanh(W, x, v):\n    return v @ W",
    "06-retained": "retained_prints = [36.0, None, None, False]",
    "07-hook": "hooked_grad = 6.0",
    "06-late": "late_prints = [True, 12.0, True, 2.0]",
    "06-hidden": ("def hidden_gradient(x, w1, w2):\n    hidden = torch.relu(x @ w1)\n"
                  "    out = (hidden @ w2).sum()\n    out.backward()\n    hidden.retain_grad()\n"
                  "    return hidden.grad"),
    "07-watch": ("def watch(tensors):\n    seen = {}\n    for name, t in tensors.items():\n"
                 "        t.register_hook(lambda grad: seen.update({name: grad}))\n"
                 "    return seen"),
    "07-clip": ("def clip_gradient(t, max_norm):\n"
                "    t.register_hook(lambda g: g / (g ** 2).sum().sqrt() * max_norm)"),
    "08-item-assignment": "item_grad = [2.0, 4.0, 3.0]",
    "08-which-raise": "inplace_outcomes = ['error', [1.0, 1.0], [2.0, 2.0], 'error']",
    "08-versions": "version_prints = [0, 1]",
    "08-data-detach": "data_detach_prints = ['error', 'error']",
    "08-normalized": ("def normalized_loss(x):\n    y = torch.sigmoid(x)\n"
                      "    y.data /= y.data.sum()\n    return (y ** 2).sum()"),
    "08-count": "def count_inplace(fn, t):\n    fn(t)\n    return t._version",
    "09-twice": "twice_prints = [6.0, 'error', 6.0, 6.0]",
    "09-inputs": "inputs_prints = [5.0, 3.0, 5.0, 3.0]",
    "09-at": "def gradients_at(loss, tensors):\n    return {name: None for name in tensors}",
    "10-td": ("def td_loss(w, x, reward):\n    prediction = (w * x).sum().detach()\n"
              "    target = reward + 0.9 * (w * x * 2).sum()\n"
              "    return (prediction - target) ** 2"),
    "10-frozen": "def frozen_copy(t):\n    return t.detach()",
    "10-recorded": "recorded_prints = [True, [4.0, 8.0], 2.0]",
    "11-topological": ("def topological_order(root):\n    order = [root]\n    for node in order:\n"
                       "        order += [c for c, _ in node.next_functions\n"
                       "                  if c is not None and c not in order]\n    return order"),
    "11-by-hand": ("def backward_by_hand(y, order):\n    pending = {y.grad_fn: torch.ones_like(y)}\n"
                   "    for node in order(y.grad_fn):\n        grad = pending.pop(node)\n"
                   "        if type(node).__name__ == 'AccumulateGrad':\n"
                   "            node.variable.grad = grad\n            continue\n"
                   "        grads = node(grad)\n"
                   "        grads = grads if isinstance(grads, tuple) else (grads,)\n"
                   "        for (child, _), g in zip(node.next_functions, grads):\n"
                   "            if child is not None:\n                pending[child] = g"),
    "11-one-step": "step_prints = [1.0, 5.0, 2.0, 5.0]",
    "12-cube": ("class Cube(torch.autograd.Function):\n    @staticmethod\n"
                "    def forward(ctx, x):\n        ctx.save_for_backward(x)\n"
                "        return x ** 3\n\n    @staticmethod\n"
                "    def backward(ctx, grad_output):\n        (x,) = ctx.saved_tensors\n"
                "        return 3 * x ** 2"),
    "12-mul-pow": ("class Mul(torch.autograd.Function):\n    @staticmethod\n"
                   "    def forward(ctx, a, b):\n        ctx.save_for_backward(a, b)\n"
                   "        return a * b\n\n    @staticmethod\n"
                   "    def backward(ctx, grad_output):\n        a, b = ctx.saved_tensors\n"
                   "        return grad_output * a, grad_output * b\n\n\n"
                   "class Pow(torch.autograd.Function):\n    @staticmethod\n"
                   "    def forward(ctx, x, n):\n        ctx.save_for_backward(x)\n"
                   "        ctx.n = n\n        return x ** n\n\n    @staticmethod\n"
                   "    def backward(ctx, grad_output):\n        (x,) = ctx.saved_tensors\n"
                   "        return grad_output * ctx.n * x ** (ctx.n - 1), None"),
    "12-softplus": ("class Softplus(torch.autograd.Function):\n    @staticmethod\n"
                    "    def forward(ctx, x):\n        ctx.save_for_backward(x)\n"
                    "        return (1 + x.exp()).log()\n\n    @staticmethod\n"
                    "    def backward(ctx, grad_output):\n        (x,) = ctx.saved_tensors\n"
                    "        return grad_output * torch.sigmoid(-x)"),
    "14-train": ("def train(model, optimizer, xs, ys, steps):\n"
                 "    loss_fn = torch.nn.CrossEntropyLoss()\n    losses = []\n"
                 "    for step in range(steps):\n        loss = loss_fn(model(xs), ys)\n"
                 "        loss.backward()\n        optimizer.step()\n"
                 "        losses.append(loss.item())\n    return losses"),
    "14-frozen": "frozen_prints = [None, [1.0], False]",
    "14-clip": ("def clip_gradients(model, max_norm):\n"
                "    return sum(p.grad.abs().sum().item() for p in model.parameters()\n"
                "               if p.grad is not None)"),
    "14-accuracy": ("def accuracy(model, xs, ys):\n"
                    "    return (model(xs).argmax(dim=1) == ys).float().mean().item()"),
    "15-second-order": "second_order_prints = [12.0, 6.0, None]",
    "15-nth": "def nth_derivative(f, x, n):\n    return torch.autograd.grad(f(x), x)[0]",
    "15-penalty": ("def penalized_gradient(loss_fn, w):\n"
                   "    return torch.autograd.grad(loss_fn(w), w)[0]"),
    "16-kept": "kept_prints = [3, 3, 12, 0]",
    "16-runs": "runs_prints = [1, 1]",
    "16-store": "def kept_in_store(make_loss):\n    return make_loss(), {}",
    "17-passes": "passes_prints = [2, 6]",
    "17-rules": ("def dual_exp(a):\n    return Dual(a.value.exp(), a.value.exp())\n\n\n"
                 "def dual_div(a, b):\n    return Dual(a.value / b.value, a.tangent / b.tangent)"),
    "17-columns": ("def jacobian_by_columns(f, x):\n"
                   "    return f(Dual(x, torch.ones(x.numel()))).tangent"),
    "13-grad-prints": "grad_prints = [[[1.5], [1.5]], [[1.0], [0.0], [1.0]], None, None]",
    "13-paths": ("def paths_from(inputs_of, root):\n    return {node: 1 for node in inputs_of}"),
    "13-tape": ("def tape_backward(tape, values, wrt):\n"
                "    return {name: np.zeros_like(values[name]) for name in wrt}"),
}


@pytest.mark.parametrize("name", NAMES)
def test_every_check_rejects_a_wrong_answer(name: str, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    """Runs in this process, without a kernel: each check must raise CheckFailed."""
    learner = copy.deepcopy(load(SOLUTIONS / name))
    for cell in learner["cells"]:
        if markers.is_answer(cell):
            assert markers.grade_id(cell) in WRONG, "add a wrong answer for this exercise"
            cell["source"] = WRONG[markers.grade_id(cell)]
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    accepted = []
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # wrong answers may read an intermediate's .grad
        for step in make_plan(learner, load(SOLUTIONS / name)).steps:
            if step.role != "check":
                exec(step.source, namespace)  # noqa: S102 - the course's own notebook
                continue
            try:
                exec(step.source, namespace)  # noqa: S102
                accepted.append(step.exercise)
            except CheckFailed as failure:
                assert str(failure).startswith("✗"), failure
    assert not accepted, f"checks that accepted a wrong answer: {accepted}"


# Fix-the-bug exercises: the check module's copy of the read-only cell's buggy code.
FIX_THE_BUG = {"02-init": "INIT_BUGGY", "03-two-losses": "TWO_LOSSES_BUGGY",
               "04-fit": "FIT_BUGGY", "05-mse": "MSE_BUGGY", "06-hidden": "HIDDEN_BUGGY",
               "08-normalized": "NORMALIZED_BUGGY", "10-td": "TD_BUGGY",
               "12-softplus": "SOFTPLUS_BUGGY", "14-train": "TRAIN_BUGGY"}


def check_module(name: str):  # "ex03_accumulation.ipynb" -> ...checks.accumulation
    return importlib.import_module(f"minigrad_course.checks.{Path(name).stem.split('_', 1)[1]}")


def test_every_buggy_cell_is_listed() -> None:
    found = {attribute for name in NAMES for attribute in vars(check_module(name))
             if attribute.endswith("_BUGGY")}
    assert found == set(FIX_THE_BUG.values())


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
@pytest.mark.parametrize("exercise", sorted(FIX_THE_BUG))
def test_an_untouched_bug_is_not_answered(exercise: str, monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    """The read-only cell shows the buggy code the check knows; with the answer cell left as
    it is, or the buggy code pasted into it (comments and blank lines aside), the check says
    "not answered"; a half fix fails. (The worked answer passing is nbval's run of solutions/:
    the check cell's stored success is compared there.) The notebook runs up to the exercise's
    check, no further: the worked answers after it have nothing to do here."""
    name = next(name for name in NAMES if exercise in answer_ids(name))
    buggy = getattr(check_module(name), FIX_THE_BUG[exercise])
    notebook = load(SOLUTIONS / name)
    shown = [markers.source_of(cell) for cell in notebook["cells"]
             if cell["cell_type"] == "code" and not markers.is_answer(cell)]
    assert any(buggy in source for source in shown), f"{exercise}: the check's copy differs"
    pasted = "# my copy\n\n" + buggy.replace("\n", "  # unchanged\n\n", 1)
    monkeypatch.chdir(tmp_path)
    for answer, verdict in (("pass", NotAnswered), (pasted, NotAnswered),
                            (WRONG[exercise], CheckFailed)):
        learner = copy.deepcopy(notebook)
        _cells_by_id(learner)[exercise]["source"] = answer
        namespace: dict = {}
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for step in make_plan(learner, notebook).steps:
                if step.role == "check" and step.exercise == exercise:
                    with pytest.raises(verdict) as raised:
                        exec(step.source, namespace)  # noqa: S102 - the course's notebook
                    if verdict is NotAnswered:
                        assert "still the buggy one" in str(raised.value)
                    break
                exec(step.source, namespace)  # noqa: S102
            else:
                pytest.fail(f"{exercise}: no check step in the plan")


def test_a_folder_without_notebooks_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "alice").mkdir()
    run = subprocess.run([sys.executable, "-m", "minigrad_course.grade", str(tmp_path / "alice")],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip() == f"no notebooks found in {tmp_path / 'alice'}"


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_a_notebook_from_another_course_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """One without our answer cells, and, with --solutions, one whose exercises solutions/ does
    not have."""
    plain = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": [],
                        "execution_count": None}], "metadata": {}, "nbformat": 4,
             "nbformat_minor": 5}
    path = tmp_path / "homework1.ipynb"
    path.write_text(json.dumps(plain), encoding="utf-8")
    code, report = grade(path)
    assert code == 2 and len(report.strip().splitlines()) == 1
    assert "no exercise of this course in it" in report
    other = load(EXERCISES / "ex03_accumulation.ipynb")
    for cell in other["cells"]:
        if markers.grade_id(cell):
            cell["metadata"]["nbgrader"]["grade_id"] = "hw1-" + markers.grade_id(cell)
            cell["id"] = "hw1-" + cell["id"]
    path = tmp_path / "ex03_accumulation-Copy1.ipynb"
    path.write_text(json.dumps(other), encoding="utf-8")
    code, report = grade(path, "--solutions", SOLUTIONS)
    assert code == 2 and len(report.strip().splitlines()) == 1
    assert "not a notebook of this course" in report


@pytest.mark.slow  # runs the grader (a worker and a kernel per notebook)
def test_a_class_in_nbgrader_layout_as_csv_json_and_one_line_per_student(
        tmp_path: Path) -> None:
    """submitted/<student>/<assignment>/: alice hands in the exercise untouched, bob the worked
    answers, carol a file that is not JSON. Every row agrees with the printed report."""
    name = "ex03_accumulation.ipynb"
    assignment = name.removesuffix(".ipynb")
    handed_in = {"alice": (EXERCISES / name).read_bytes(), "bob": (SOLUTIONS / name).read_bytes(),
                 "carol": b'{"cells": ['}
    paths = []
    for student, data in handed_in.items():
        path = tmp_path / "submitted" / student / assignment / name
        path.parent.mkdir(parents=True)
        path.write_bytes(data)
        paths.append(path)
    csv_path, json_path = tmp_path / "grades.csv", tmp_path / "grades.json"
    code, report = grade(*paths, "--solutions", SOLUTIONS, "--jobs", "2", "--csv", csv_path,
                         "--json", json_path)
    assert code == 2, report  # carol's notebook could not be graded

    import csv
    with open(csv_path, newline="", encoding="utf-8") as handle:
        from_csv = list(csv.DictReader(handle))
    from_json = json.loads(json_path.read_text(encoding="utf-8"))
    assert [list(row) for row in from_json] == [list(row) for row in from_csv]
    assert list(from_csv[0]) == ["student", "assignment", "exercise", "score", "max_score",
                                 "status", "message", "notebook"]
    assert [{k: str(v) for k, v in row.items()} for row in from_json] == from_csv

    exercises = answer_ids(name)
    by_student = {student: [row for row in from_json if row["student"] == student]
                  for student in handed_in}
    assert all(row["assignment"] == assignment for row in from_json)
    assert [row["exercise"] for row in by_student["alice"]] == exercises
    assert {row["status"] for row in by_student["alice"]} == {"not attempted"}
    assert {row["status"] for row in by_student["bob"]} == {"passed"}
    assert sum(row["score"] for row in by_student["bob"]) == \
        sum(row["max_score"] for row in by_student["bob"]) == len(exercises)
    assert sum(row["score"] for row in by_student["alice"]) == 0
    [carol] = by_student["carol"]
    assert carol["status"] == "error" and carol["exercise"] == "" and carol["score"] == 0
    assert "not a notebook" in carol["message"] or "JSON" in carol["message"], carol

    # The rows say what the report printed, exercise by exercise.
    blocks = report.split(str(paths[1]))
    assert statuses(blocks[0]) == {r["exercise"]: r["status"] for r in by_student["alice"]}
    assert statuses(blocks[1]) == {r["exercise"]: r["status"] for r in by_student["bob"]}
    summary = [line for line in report.splitlines() if line.startswith("student ")]
    n = len(exercises)
    assert summary == [
        f"student alice: 0 of {n} points; {assignment} 0/{n} ({n} not attempted)",
        f"student bob: {n} of {n} points; {assignment} {n}/{n} ({n} passed)",
        "student carol: 0 of 0 points; ex03_accumulation could not be graded"]


def test_an_unwritable_csv_is_exit_2(tmp_path: Path, capsys) -> None:
    """The report is printed whole, then the exit code says the CSV is missing (an unanswered
    notebook: what it scores does not matter here)."""
    name = "ex03_accumulation.ipynb"
    code, report = grade(EXERCISES / name, "--csv", tmp_path / "no such folder" / "g.csv")
    assert code == 2
    assert "could not write" in capsys.readouterr().err
    assert f"0 of {len(answer_ids(name))} exercises passed" in report
