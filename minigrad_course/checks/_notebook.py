"""One line instead of a traceback for an exercise not answered yet, in IPython and Jupyter.

Run top to bottom untouched, an exercise notebook raises in every answer cell (nbgrader's
placeholder `raise NotImplementedError()`) and in every check of a predicted value (its name is
not defined yet). Both are expected, so IPython's traceback of the cell would only hide what to
do next. The cell still fails, as an error output with the exception's class name: nbgrader
scores it 0 and the grader reports "not attempted". Any other exception keeps its traceback.

`install()` runs when a check module is imported (the first cell of every exercise notebook);
outside IPython it does nothing. It also notes when each cell last ran (`last_run`), so that the
grading cell at the end of the notebook can tell that the saved file lacks code that ran since."""
from __future__ import annotations

import ast
import linecache
import os
import sys
import time
from types import TracebackType
from typing import Any

CHECK_PACKAGE = "minigrad_course.checks."
# Set in the grader's kernel (minigrad_course.grade): the grading cell at the end of a notebook
# sees it and does not start a grading of its own, and checks draw no graphs there.
GRADING_ENV = "MINIGRAD_GRADING"
last_run: dict[str, float] = {}  # a cell's code -> when (time.time()) it last finished running


def running_shell() -> Any:
    """The IPython shell this code runs in, or None (a terminal, a script). IPython is never
    imported here: a run outside Jupyter stays light."""
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


def grading() -> bool:
    return bool(os.environ.get(GRADING_ENV))


# Set by the grader's worker while a cell whose outputs a test compares runs (a solution's one
# run, docs/grading.md): it then draws what Jupyter's kernel would.
outputs_kept = False


def drawing() -> bool:
    """Are pictures drawn? In Jupyter, yes; in the grader's worker, where nobody looks and
    drawing costs seconds, only while a test keeps the cell's outputs."""
    return not grading() or outputs_kept


def install() -> None:
    shell = running_shell()
    if shell is not None:
        shell.set_custom_exc((NotImplementedError, NameError), _show)
        if _remember_run not in shell.events.callbacks["post_run_cell"]:
            shell.events.register("post_run_cell", _remember_run)


def _remember_run(result: Any) -> None:
    info = getattr(result, "info", None)
    if info is not None and info.raw_cell is not None:
        last_run[info.raw_cell] = time.time()


def _show(shell: Any, etype: type, value: BaseException, tb: TracebackType,
          tb_offset: int | None = None) -> None:
    line = unanswered(value, tb)
    if line is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    else:
        shell._showtraceback(etype, value, [line])  # an error output of one line


def unanswered(error: BaseException, tb: TracebackType | None) -> str | None:
    """The one line for an exercise not answered yet, or None for a real error."""
    render = getattr(error, "_render_traceback_", None)
    if render is not None:  # NotAnswered: the check already wrote its line
        return "\n".join(render())
    last = tb
    while last is not None and last.tb_next is not None:
        last = last.tb_next
    if last is None or last.tb_frame.f_globals.get("__name__") != "__main__":
        return None  # raised inside a library, not in a notebook cell
    frame = last.tb_frame
    if isinstance(error, NotImplementedError) and not error.args:
        if frame.f_code.co_name == "<module>":
            return ("✗ Not answered yet: replace `raise NotImplementedError()` with your "
                    "answer and run the cell.")
        return (f"✗ Not answered yet: {frame.f_code.co_name}() still raises "
                "NotImplementedError; write it in its answer cell and run that cell.")
    name = getattr(error, "name", None)
    if isinstance(error, NameError) and name and frame.f_code.co_name == "<module>" and \
            _passed_to_a_check(name, frame.f_code.co_filename, last.tb_lineno, frame.f_globals):
        return (f"✗ Not answered yet: `{name}` is not defined; set it in the answer cell "
                "above and run that cell.")
    return None


def _passed_to_a_check(name: str, filename: str, lineno: int, namespace: dict) -> bool:
    """Is the line a call like `check.loop(after_loop)`, with `check` a check module?"""
    try:
        tree = ast.parse(linecache.getline(filename, lineno).strip())
    except SyntaxError:  # a statement over several lines: not a check cell's call
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name):
            module = namespace.get(node.func.value.id)
            if getattr(module, "__name__", "").startswith(CHECK_PACKAGE) and \
                    any(isinstance(arg, ast.Name) and arg.id == name for arg in node.args):
                return True
    return False
