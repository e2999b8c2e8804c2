"""Each check against the answers learners write (tests/course/answers/, one table per
exercise): a wrong answer fails, with feedback that names its misconception and gives nothing
away, and a right answer other than the worked one passes.

The checks named in a row (the visible one, then the hidden ones) are called in this process,
as the check cell calls them, on what the answer cell defines."""
from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import minigrad
from answers import EXERCISES, TABLES
from answers.feedback_words import PASS, Fails, assert_names_the_misconception, fails
from minigrad_course.checks._feedback import CheckFailed, NotAnswered

ROOT = Path(__file__).resolve().parents[2]
ROWS = [row for rows in TABLES.values() for row in rows]
WRONG = [row for row in ROWS if fails(row[2])]


CELL = "<the answer cell>"


def _defined_by_the_cell(value: object) -> bool:
    """A function or class the answer defines, or a plain value it sets (not an import)."""
    if isinstance(value, type(sys)):
        return False
    if isinstance(value, type):
        return value.__module__ == "__main__"
    code = getattr(inspect.unwrap(value), "__code__", None)
    if code is not None:
        return code.co_filename == CELL
    return not callable(value)


def run_checks(checks: str, source: str) -> tuple[bool, str]:
    """(passed, what the checks printed or the first failure) for the answer `source`. A check
    takes the names its parameters name (`Tensor`, `backward`) when the answer defines them all,
    else the last names the answer defines, as many as it takes, in order."""
    module_name, names = checks.split(".")
    module = importlib.import_module(f"minigrad_course.checks.{module_name}")
    namespace: dict = {"torch": minigrad, "check": module, "__name__": "__main__"}
    given = set(namespace) | {"__builtins__"}
    limit, profile = sys.getrecursionlimit(), sys.getprofile()
    out = io.StringIO()
    try:
        exec(compile(source, CELL, "exec"), namespace)  # noqa: S102 - our table
        defined = {name: value for name, value in namespace.items()
                   if name not in given and _defined_by_the_cell(value)}
        assert defined, "the answer defines nothing"
        with contextlib.redirect_stdout(out):
            for name in names.split("+"):
                check = getattr(module, name)
                wanted = [p.name for p in inspect.signature(check).parameters.values()
                          if p.default is p.empty]
                if all(param in defined for param in wanted):
                    check(*(defined[param] for param in wanted))
                else:
                    check(*list(defined.values())[-len(wanted):])
    except (CheckFailed, NotAnswered) as failure:  # a build's untouched stub: not answered
        return False, str(failure)
    finally:  # what an answer may have changed for the whole process
        sys.setrecursionlimit(limit)
        sys.setprofile(profile)
        minigrad.set_grad_enabled(True)
    return True, out.getvalue()


def row_id(checks: str, source: str) -> str:
    return f"{checks.split('+')[0]} {source.strip().splitlines()[-1].strip()[:50]}"


@pytest.mark.parametrize(("checks", "source", "passes"),
                         [pytest.param(*row, id=row_id(*row[:2])) for row in ROWS])
def test_the_check_judges_the_answer(checks: str, source: str, passes: bool | Fails) -> None:
    """A right answer passes. A wrong one fails, with feedback that names its misconception and
    gives nothing away (feedback_words.py), each hint once, and an expected value, if at all,
    only roughly: checks compare to 1e-4, and a number shown more exactly could be pasted back
    (as "about" and 2 significant digits)."""
    passed, message = run_checks(checks, source)
    assert passed == (passes is PASS), message
    if not fails(passes):
        return
    assert_names_the_misconception(message, passes)
    hints = re.findall(r"Hint: (.*)", message)
    assert len(hints) == len(set(hints)), message
    told = re.sub(r"raised \w+: .*", "raised", message)  # the answer's own error, as raised
    assert not re.search(r"expected \[?-?\d", told), message
    for shown in re.findall(r"about (\[[^\]]*\]|-?[\d.e+-]+)", told):
        for number in re.findall(r"\d[\d.]*", shown.split("e")[0] if "[" not in shown
                                 else shown):
            assert len(number.replace(".", "").lstrip("0")) <= 2, message


def test_the_hook_answer_is_not_told_it_used_retain_grad() -> None:
    hook_answers = [source for checks, source, passes in ROWS if passes is PASS
                    and checks == "retain_grad.hidden_gradient" and "register_hook" in source]
    assert hook_answers
    for source in hook_answers:
        passed, message = run_checks("retain_grad.hidden_gradient", source)
        assert passed and "retain_grad" not in message, message


def test_will_get_grad_asks_for_a_bool_once() -> None:
    _, message = run_checks("grad_is_none.will_get_grad",
                            "def will_get_grad(t):\n    return int(t.is_leaf and t.requires_grad)")
    assert message.count("\n") == 0 and "should return a bool" in message, message


def test_a_number_for_a_printed_tensor_is_told_the_shape() -> None:
    _, message = run_checks("accumulation.loop", "after_loop = 12")
    assert "shape (2,)" in message, message


def test_the_backward_pass_check_puts_backward_back() -> None:
    """check.backward_pass disables backward() and counts how often nodes run while the
    learner's pass runs; after a failing answer all is as before, in the learner's kernel."""
    from minigrad.autograd.accumulate import AccumulateGrad
    from minigrad.autograd.function import BackwardFunction
    from minigrad.tensor import Tensor

    def patched() -> tuple:
        return (Tensor.backward, BackwardFunction.apply, AccumulateGrad.apply,
                minigrad.autograd.backward, minigrad.autograd.grad)

    originals = patched()
    passed, message = run_checks("inside_the_engine.backward_pass",
                                 "def my_backward(root):\n    root.backward()")
    assert not passed and "should run the nodes itself" in message, message
    assert patched() == originals
    x = minigrad.tensor(2.0, requires_grad=True)
    (x * x).backward()
    assert x.grad.item() == 4.0


PREDICTIONS = [  # (check, the right answer, two answers each wrong in one other place)
    ("tensors_and_graphs.leaves",
     [True, True, True, False, False, True, False, True, True, False], 0, 9),
    ("grad_is_none.outcomes", [6.0, "error", [0.0, 0.0], "error"], 0, 2),
    ("accumulation.both_orders", [4.0, 16.0, 12.0, 16.0], 1, 3),
    ("resetting_gradients.zero_grad", [[0.0, 0.0], [3.0, 3.0], None], 0, 2),
    ("non_scalar_outputs.weighted", [[3.0, 6.0, 6.0], [1.0, 1.0, 4.0]], 0, 1),
    ("retain_grad.retained", [15.0, 6.0, None, False], 1, 3),
    ("inplace.which_raise", ["error", "error", [0.5, 0.5], [0.5, 0.25]], 0, 3),
    ("graphs_used_again.twice", [24.0, "error", 12.0, None], 0, 3),
    ("second_derivatives.second_order", [4.0, 12.0, None], 0, 2),
    ("saved_tensors.kept", [6, 3, 12, 0], 1, 3),
    ("graphs_used_again.named_inputs", [5.0, None, 5.0, 3.0], 0, 1),
    ("saved_tensors.block_runs", [1, 2], 0, 1),
    ("forward_mode.passes", [4, 1], 0, 1),
    ("inside_the_engine.one_step", [1.0, 15.0, 6.0, 6.0], 1, 2),
    ("capstone.frozen", [None, [4.0], False], 0, 2),
    ("engine_from_scratch.grad_prints", [[[1.5], [1.5]], 2.0, None, None], 1, 3),
]


@pytest.mark.parametrize(("check", "right", "first", "second"), PREDICTIONS)
def test_predictions_are_marked_as_a_whole(check: str, right: list, first: int,
                                           second: int) -> None:
    """Two answers wrong in different places get the same message: a retry that changes one
    prediction at a time learns nothing about which one was wrong."""
    module_name, name = check.split(".")
    module = importlib.import_module(f"minigrad_course.checks.{module_name}")
    messages = []
    for wrong in (first, second):
        answers = list(right)
        value = answers[wrong]
        answers[wrong] = not value if isinstance(value, bool) else \
            None if value == "error" else "error"
        with pytest.raises(CheckFailed) as failure:
            getattr(module, name)(answers)
        messages.append(str(failure.value))
    assert messages[0] == messages[1]


def _exercise_checks() -> list[str]:
    """"module.function" for every check a check cell of solutions/ calls (hidden ones too)."""
    found = []
    for path in sorted((ROOT / "solutions").glob("ex*.ipynb")):
        cells = ["".join(cell["source"]) for cell in json.loads(path.read_text())["cells"]
                 if cell["cell_type"] == "code"]
        module = re.search(r"from minigrad_course\.checks import (\w+) as check", cells[0])[1]
        found += [f"{module}.{name}" for source in cells
                  for name in re.findall(r"^check\.(\w+)\(", source, re.MULTILINE)
                  if name not in ("show_target",)]
    return found


def test_every_exercise_has_a_wrong_answer_here() -> None:
    """Breadth first: each of the 44 exercises (and each hidden check) is tried with at least
    one wrong answer."""
    failing = {f"{row[0].split('.')[0]}.{name}" for row in WRONG
               for name in row[0].split(".")[1].split("+")}
    checks = _exercise_checks()
    assert len(set(checks)) >= 44
    assert [check for check in checks if check not in failing] == []


def test_the_watcher_works_in_a_graded_kernel(tmp_path) -> None:
    """The same checks under the grader, in a Jupyter kernel: recursion and the engine's own
    backward pass are seen there too (one kernel, two wrong answers, one right)."""
    from minigrad_course.checks import markers

    notebook = json.loads((ROOT / "solutions" / "ex11_inside_the_engine.ipynb").read_text())
    answers = {"11-topological": next(source for checks, source, _ in ROWS
                                      if checks.startswith("inside_the_engine.topological")
                                      and "visit(child)" in source),
               "11-by-hand": "def backward_by_hand(y, order):\n    y.backward()"}
    for cell in notebook["cells"]:
        if markers.grade_id(cell) in answers:
            cell["source"] = answers[markers.grade_id(cell)]
    path = tmp_path / "ex11_inside_the_engine.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade", "--solutions",
                           str(ROOT / "solutions"), str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    lines = {line.split()[1]: line for line in done.stdout.splitlines()
             if line.strip().startswith(("passed", "failed"))}
    assert lines["11-topological"].split()[0] == "failed", done.stdout
    assert "visit calls itself" in lines["11-topological"], done.stdout
    assert lines["11-by-hand"].split()[0] == "failed", done.stdout
    assert "engine's backward pass" in lines["11-by-hand"], done.stdout
    assert lines["11-one-step"].split()[0] == "passed", done.stdout


def test_each_caption_sits_with_its_own_graph() -> None:
    from minigrad_course.checks._feedback import graphs_html

    a, b = minigrad.tensor(2.0, requires_grad=True), minigrad.tensor(-1.0, requires_grad=True)
    wide = a
    for _ in range(6):
        wide = wide * b + a
    html = graphs_html([("your graph", wide), ("the expected graph", (a * b + b) ** 2)])
    figures = html.split("<figure")[1:]
    assert len(figures) == 2
    for figure, caption in zip(figures, ("your graph", "the expected graph")):
        assert figure.index(caption) < figure.index("<svg") and "</figure>" in figure
        assert figure.count("<figcaption>") == 1


def test_one_table_per_exercise_each_row_in_its_own() -> None:
    """answers/exNN_name.py for each exercise of course/exercises/, holding rows for the checks
    of minigrad_course/checks/name.py only."""
    assert EXERCISES == sorted(path.stem for path in (ROOT / "course" / "exercises").glob("ex*.py"))
    strays = [(name, row[0]) for name, rows in TABLES.items() for row in rows
              if row[0].split(".")[0] != name.split("_", 1)[1]]
    assert strays == []


def test_every_row_ends_in_pass_or_in_what_its_feedback_says() -> None:
    """A bare FAIL (the function, not called) would make a row fail with no feedback checked."""
    assert [row[:2] for row in ROWS if not (row[2] is PASS or fails(row[2]))] == []
