"""A lesson's build cells in a kernel (minigrad_course/builds.py): a stub says it is not answered,
what needs it waits and says for what, in one line each and without raising; once the learner's
code runs, every cell runs as written."""
from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from minigrad_course import builds

NOT_ANSWERED = builds.NOT_ANSWERED + "\n"


def waiting(*names: str) -> str:
    """The line of a cell that waits for names no cell defines."""
    return builds.waiting_line(list(names)) + "\n"


def unwritten(*names: str) -> str:
    """The line of a cell that waits for functions whose cell still holds the placeholder."""
    return builds.waiting_line([], list(names)) + "\n"


def run_cells(*sources: str) -> list[str]:
    """What each cell printed (stdout, results, error names), run in order in a fresh kernel."""
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("%load_ext minigrad_course.builds")] +
        [nbformat.v4.new_code_cell(source) for source in sources])
    for cell in notebook.cells:
        cell.metadata["tags"] = ["raises-exception"]  # an error is reported, not fatal
    NotebookClient(notebook, kernel_name="python3", timeout=60).execute()
    printed = []
    for cell in notebook.cells[1:]:
        printed.append("".join(output.get("text", "") or output.get("ename", "") or
                               output.get("data", {}).get("text/plain", "")
                               for output in cell.outputs))
    return printed


def test_a_lesson_runs_past_unanswered_builds_and_runs_once_answered() -> None:
    printed = run_cells(
        "a = 3.0",
        "grad_L = 1.0\n# YOUR CODE HERE\nraise NotImplementedError()",  # the learner's stub
        "result = a * 2\nprint(result, grad_a, grad_b)",  # needs the build: waits
        "assert result == 6.0 and grad_a == 2",  # needs a cell that waited: waits for the build
        "print(a)",  # needs nothing of the build: runs
        "def double(t):\n    # YOUR CODE HERE\n    raise NotImplementedError()",
        "print(double(a))",
        "def record(t):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n\n\n"
        "def add(t):\n    return record(t)",  # given code beside the stub:
        "print(add(a))",  # waits for what the learner is to write, not for `add`
        "grad_a, grad_b = 2, 3",  # the learner's answer
        "result = a * 2\nprint(result, grad_a, grad_b)",
        "assert result == 6.0 and grad_a == 2\nprint('checked')",
        "print(double(a))",  # double is still the stub
        "def double(t):\n    return 2 * t",
        "print(double(a))",
    )
    assert printed == [
        "", NOT_ANSWERED, waiting("grad_a", "grad_b"), waiting("grad_a", "grad_b"), "3.0\n",
        NOT_ANSWERED, unwritten("double"), NOT_ANSWERED, unwritten("record"),
        "", "6.0 2 3\n", "checked\n", unwritten("double"), "", "6.0\n"]


def test_a_waiting_line_says_what_is_true_of_each_name() -> None:
    """A function whose cell holds the placeholder is there to read, so "not defined" would be
    false: it is not written. It stays so when an earlier run of its cell defined it, until its
    cell runs again; a name no cell binds is not defined, as Python's NameError says."""
    printed = run_cells(
        "def double(t):\n    return 2 * t",
        "def double(t):\n    # YOUR CODE HERE\n    raise NotImplementedError()",  # defined before
        "print(double(1), typo(2))",
        "def double(t):\n    return 2 * t\n\n\ndef half(t):\n    raise NotImplementedError()",
        "print(double(1))",  # double is written now; its cell waits for half
        "print(half(1))",
    )
    assert printed[2] == builds.waiting_line(["typo"], ["double"]) + "\n" == (
        f"{builds.WAITING} Not run: `double` is not written yet, and `typo` is not defined yet; "
        "write them above and run them, then this one.\n")
    assert printed[4:] == [unwritten("half"), unwritten("half")]
    assert unwritten("record") == (f"{builds.WAITING} Not run: `record` is not written yet; "
                                   "write it above and run it, then this one.\n")


def test_what_is_not_the_builds_runs_as_python_does() -> None:
    """Comprehensions, lambdas, classes, imports, exceptions and magics keep their own names;
    a function's body is read only when called; a real error is still an error."""
    printed = run_cells(
        "squares = [i * i for i in range(3)]\nprint(squares, {k: v for k, v in [(1, 2)]})",
        "f = lambda q: q + later\nlater = 1\nprint(f(1))",
        "class Box:\n    size = 2\n    double = size * 2\nprint(Box.double)",
        "import os.path\nprint(os.path.basename('a/b'))",
        "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n    print(type(error).__name__)",
        "%config InlineBackend.figure_formats = ['svg']\nprint(get_ipython() is not None)",
        "def uses_a_later_name():\n    return defined_later\nprint('defined')",
        "print(1 / 0)",
    )
    assert printed == ["[0, 1, 4] {1: 2}\n", "2\n", "4\n", "b\n", "ZeroDivisionError\n",
                       "True\n", "defined\n", "ZeroDivisionError"]


@pytest.mark.parametrize(("source", "used", "defined"), [
    ("x = y + 1", ["y"], {"x"}),
    ("def f(a=b):\n    return c", ["b"], {"f"}),
    ("@deco\nclass K(Base):\n    m = n\n    def g(self):\n        return z",
     ["deco", "Base", "n"], {"K"}),
    ("[i for i in items]", ["items"], set()),
    ("with open_it() as handle:\n    handle.read()", ["open_it"], {"handle"}),
    ("for k in keys:\n    total = k", ["keys"], {"k", "total"}),
    ("from m import *\nprint(x)", [], set()),
])
def test_names_a_cell_uses_and_defines(source: str, used: list[str], defined: set[str]) -> None:
    assert builds.names_of(ast.parse(source)) == (used, defined)


@pytest.mark.parametrize(("source", "holds"), [
    ("raise NotImplementedError()", True),
    ("def f():\n    raise NotImplementedError", True),
    ("raise NotImplementedError('not for floats')", False),
    ("raise ValueError()", False),
])
def test_the_placeholder_is_recognised(source: str, holds: bool) -> None:
    assert builds.holds_placeholder(ast.parse(source)) == holds


def test_the_start_page_names_the_lessons_that_ask_for_code() -> None:
    """Lesson 00's "Write it yourself" says which lessons hold a build cell: the sources say so
    too, and a lesson that gains or loses one must change the sentence."""
    root = Path(__file__).resolve().parents[2] / "course"
    with_builds = sorted(int(path.name[:2]) for path in root.glob("[0-9][0-9]_*.py")
                         if '# %% tags=["build"' in path.read_text())
    runs, start = [], None
    for number in with_builds + [None]:  # consecutive numbers as "a to b"
        if start is None:
            start = previous = number
        elif number == previous + 1:
            previous = number
        else:
            runs.append(f"{start:02d} to {previous:02d}" if previous > start else f"{start:02d}")
            start = previous = number
    said = "Lessons " + " and ".join(runs) + " ask you to write some of the code"
    text = " ".join(line.lstrip("# ").strip()
                    for line in (root / "00_start_here.py").read_text().splitlines())
    assert said in text
