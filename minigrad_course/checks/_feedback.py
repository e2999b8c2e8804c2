"""What every check shares: one verdict per property, then a short success line or a
`CheckFailed` that lists each property that failed, what was expected (in words) and a hint.
A message never states the answer itself. An exercise not answered yet raises `NotAnswered`,
which says so in one line.

In Jupyter every message is short: a failure shows only its message (no frames through this
package), success shows as a green box, and unanswered cells say so in one line (see
`_notebook`). Every failure or unanswered exercise still raises, so that nbgrader scores it 0.

A check's verdict is `Checks.verdict(success)` (or `succeed(text)`): the success line, or
CheckFailed. In the notebook, every `Checks` also refuses to judge (raising `Tampered`) when the
notebook's code has replaced something the checks rely on (numpy, minigrad, the checks
themselves: see minigrad_course/integrity/ and docs/integrity.md), which matters under nbgrader,
where checks run in the student's kernel. The course's grader runs no check there: its judge
calls them in its own process, on data (`_exercise`, `judged`), and collects their success
lines instead of printing them."""
from __future__ import annotations

import html
import linecache
import threading
import math
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

import minigrad
import minigrad_course
from minigrad.tensor import Tensor
from ..integrity import snapshot
from . import _notebook

TOLERANCE = 1e-4
# Frames in the engine, in this course's tooling, the standard library or installed packages
# are not the learner's code.
NOT_LEARNERS = tuple(Path(folder).resolve() for folder in (
    *minigrad.__path__, *minigrad_course.__path__, sys.prefix, sys.base_prefix))


class CheckFailed(AssertionError):
    """A check's verdict. Jupyter shows only its message: a traceback through the checking code
    would bury the hint under code the learner did not write."""

    def _render_traceback_(self) -> list[str]:  # IPython calls this instead of formatting frames
        return str(self).splitlines()


class Tampered(CheckFailed):
    """The notebook's code replaced what the checks rely on: no verdict can be trusted."""


class NotAnswered(NotImplementedError):
    """The exercise still holds its placeholder (or the untouched bug). A NotImplementedError,
    as nbgrader's placeholder raises, so the grader reports "not attempted"."""

    def _render_traceback_(self) -> list[str]:
        return [f"✗ Not answered yet: {self}"]


class Passed:
    """A check's success line: a green box in Jupyter, the plain line elsewhere."""

    def __init__(self, text: str) -> None:
        self.text = f"✓ {text}"

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return ("<div style='background:rgba(30,142,62,0.14);border-left:4px solid #1e8e3e;"
                f"padding:4px 10px;margin:2px 0'>{html.escape(self.text)}</div>")


def learner_line(error: BaseException) -> str:
    """Where the learner's own code raised `error`: the deepest frame outside minigrad, as
    "line 3 of your cell: w.grad += 1", or "" when no such frame has its source at hand."""
    found = ""
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        path = Path(code.co_filename).resolve()
        if not any(path.is_relative_to(folder) for folder in NOT_LEARNERS):
            text = linecache.getline(code.co_filename, tb.tb_lineno).strip()
            if text:
                found = f"line {tb.tb_lineno} of your cell: {text}"
        tb = tb.tb_next
    return found


def _fingerprint(value: Any) -> Any:
    """What a function (or a class's methods) does, without line numbers or file names:
    equal for the same code typed elsewhere, different as soon as any statement changes."""
    if isinstance(value, type):
        return tuple(sorted((name, _fingerprint(member)) for name, member in vars(value).items()
                            if isinstance(member, (types.FunctionType, staticmethod,
                                                   classmethod))))
    value = getattr(value, "__func__", value)
    code = getattr(value, "__code__", value)
    if not isinstance(code, types.CodeType):
        return None
    return (code.co_code, code.co_names, code.co_varnames, code.co_freevars,
            tuple(_fingerprint(c) if isinstance(c, types.CodeType) else c
                  for c in code.co_consts))


def is_untouched(answer: Any, buggy_source: str, name: str) -> bool:
    """Is `answer` still the buggy `name` defined by `buggy_source` (the read-only cell)?"""
    namespace: dict[str, Any] = {"torch": minigrad}
    exec(compile(buggy_source, "<the buggy cell>", "exec"), namespace)  # noqa: S102 - ours
    mine = _fingerprint(answer)
    return mine is not None and mine == _fingerprint(namespace[name])


# In the grader's judge, the success lines of the checks it runs itself (predictions), per thread.
_collecting = threading.local()


def refuse_if_tampered() -> None:
    """Raise Tampered when the notebook replaced something watched (integrity/snapshot.py)."""
    global _PRISTINE
    if _PRISTINE is None:  # only in the grader's kernel, if it did not set one
        _PRISTINE = snapshot.Snapshot()
    _PRISTINE.extend()  # the check modules imported since this module was
    changed = _PRISTINE.changes()
    if changed:
        raise Tampered(f"✗ This check cannot be trusted: the notebook's code replaced "
                       f"{snapshot.describe(changed)}, which the checks rely on. Remove that "
                       "code, restart the kernel and run the notebook again.")


def succeed(text: str) -> None:
    """Report a check's success: the green box (or the plain line); in the judge, kept."""
    collected = getattr(_collecting, "lines", None)
    if collected is not None:
        collected.append(text)
        return
    refuse_if_tampered()  # the learner's code ran during the check, and may have patched
    if _notebook.running_shell() is not None:
        from IPython.display import display

        display(Passed(text))
    else:
        sys.stdout.write(f"✓ {text}\n")  # one write: one output


class Checks:
    """Collects the verdict on each property, so one mistake does not hide the others."""

    def __init__(self, subject: str, trusted: bool = False) -> None:
        if not trusted and getattr(_collecting, "lines", None) is None:
            refuse_if_tampered()  # not in the judge, which runs no learner's code
        self.subject = subject
        self.failures: list[str] = []
        self.count = 0

    def require_changed(self, answer: Any, buggy_source: str, name: str) -> None:
        """A fix-the-bug exercise whose `name` is still the read-only cell's buggy one has not
        been answered: say so, rather than list the failures of the bug the learner is asked
        to find."""
        if is_untouched(answer, buggy_source, name):
            raise NotAnswered(f"{name} is still the buggy one from the cell above; write the "
                              "fixed version in the answer cell and run it.")

    def not_answered(self) -> NoReturn:
        raise NotAnswered(f"{self.subject} still raises NotImplementedError; write it in the "
                          "answer cell above and run that cell.") from None

    def expect(self, ok: bool | Callable[[], bool], failure: str) -> bool:
        """Record one property; `ok` may be a callable, and if it raises, the property failed."""
        self.count += 1
        try:
            holds = bool(ok() if callable(ok) else ok)
        except NotImplementedError:
            self.not_answered()
        except Exception as error:  # noqa: BLE001 - the learner's object broke the test itself
            holds = False
            failure += f" (checking it raised {type(error).__name__}: {error})"
        if not holds:
            self.failures.append(failure)
        return holds

    def call(self, function: Any, *args: Any, hints: dict[str, str] | None = None,
             doing: str = "calling it", **kwargs: Any) -> Any:
        """Run the learner's code; a crash ends the check at once, since nothing else can be
        judged, and names the learner's line that raised. NotImplementedError becomes
        NotAnswered. `hints` maps a piece of an error message to what to look at when it
        appears."""
        if not callable(function):
            self.fail_now(f"{self.subject} should be a function, but it is of type "
                          f"{type(function).__name__}.")
        try:
            return function(*args, **kwargs)
        except NotImplementedError:
            self.not_answered()
        except Exception as error:  # noqa: BLE001 - any crash of learner code is feedback
            message = f"{doing} raised {type(error).__name__}: {error}"
            where = learner_line(error)
            if where:
                message += f"\n    at {where}"
            for fragment, hint in (hints or {}).items():
                if fragment in str(error):
                    message += f"\n    Hint: {hint}"
            self.fail_now(message)

    def fail_now(self, failure: str) -> NoReturn:
        self.failures.append(failure)
        self.verdict("")
        raise AssertionError("unreachable")  # verdict raised already; this tells type checkers

    def verdict(self, success: str) -> None:
        """Print the success line, or raise CheckFailed listing every failed property."""
        if self.failures:
            raise CheckFailed(self.message())
        succeed(success)

    def message(self) -> str:
        """The failures, each hint once: one line, or a count and one line per failure."""
        self.failures = without_repeated_hints(self.failures)
        if len(self.failures) == 1:
            return f"✗ {self.subject}: {self.failures[0]}"
        count = f"{len(self.failures)} of {max(self.count, 1)} checks failed"
        return "\n".join([f"✗ {self.subject}: {count}",
                          *(f"  ✗ {failure}" for failure in self.failures)])


def without_repeated_hints(failures: list[str]) -> list[str]:
    """Each hint once: a mistake repeated on every case gets its hint with the first case
    only, so that the list of failures reads as cases, not as the same advice four times."""
    given: set[str] = set()
    kept = []
    for failure in failures:
        text, marker, hint = failure.partition(" Hint: ")
        if marker and hint in given:
            failure = f"{text} (same hint as above)"
        if marker:
            given.add(hint)
        kept.append(failure)
    return kept


def _payload(value: Any) -> Any:
    """What holds a numeric answer's numbers: a tensor's data, a tuple's items, the value."""
    if isinstance(value, Tensor):
        return value.detach()._data
    if isinstance(value, dict):
        return value.get("tensor", value.get("tuple"))
    return value


def as_array(value: Any) -> np.ndarray | None:
    """A learner's numeric answer (number, list, numpy array or tensor, or the data of one: see
    `_data`) as a float array; None for anything else (text such as "12" among it)."""
    value = _payload(value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    try:
        array = np.asarray(value)
        # Text, objects and integers too large for a float are no numbers.
        return None if array.dtype.kind not in "biuf" else array.astype(float)
    except (TypeError, ValueError, OverflowError):
        return None


def roughly(value: Any) -> str:
    """An expected value for a failure message, to 2 significant digits: enough to see how far
    off an answer is, too rough to paste back in (checks compare to 1e-4)."""
    array = as_array(value)
    if array is None:
        return "None" if value is None else type(value).__name__
    text = np.array2string(array, separator=", ", max_line_width=10**6,
                           formatter={"float_kind": lambda x: f"{x:.2g}"})
    return "about " + " ".join(text.split())


def _truth_values(value: Any) -> bool:
    """Is `value` made of True and False (a list of them, a bool array or tensor)?"""
    try:
        return np.asarray(_payload(value)).dtype.kind == "b"
    except (TypeError, ValueError, OverflowError):
        return False


def same_numbers(answer: Any, expected: Any) -> bool:
    """True when `answer` holds the numbers of `expected` (shape included, up to rounding).
    True and False are not the numbers 1 and 0: [False, False] is no prediction of a tensor
    of zeros."""
    mine, theirs = as_array(answer), as_array(expected)
    if mine is None or theirs is None or _truth_values(answer) != _truth_values(expected):
        return False
    if mine.shape != theirs.shape and mine.size == theirs.size == 1:
        mine, theirs = mine.reshape(()), theirs.reshape(())
    return mine.shape == theirs.shape and bool(np.allclose(mine, theirs, rtol=TOLERANCE,
                                                           atol=TOLERANCE))


def is_number(value: Any) -> bool:
    array = as_array(value)
    return array is not None and array.size == 1 and math.isfinite(float(array.reshape(())))


def times(count: int) -> str:
    """How often something ran: "once", "0 times", "3 times" (never "1 times")."""
    return "once" if count == 1 else f"{count} times"


def describe(value: Any) -> str:
    """What kind of answer the learner gave, in words, without judging it."""
    if value is None:
        return "None"
    if isinstance(value, dict) and "object" in value:
        return f"a {value['object']}"
    if isinstance(value, dict) and "dict" in value:
        return "a dict"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, bool):
        return "a bool"
    array = as_array(value)
    if array is None:
        return f"a {type(value).__name__}"
    return "a number" if array.size == 1 else f"numbers of shape {tuple(array.shape)}"


def shown(value: Any) -> str:
    """A value in a failure message: numbers rounded to 4 digits, anything else in words."""
    array = as_array(value)
    if array is None:
        return describe(value)
    text = np.array2string(array, separator=", ", max_line_width=10**6,
                           formatter={"float_kind": lambda x: f"{x:.4g}"})
    text = " ".join(text.split())  # one line, whatever the shape
    return text


def versus(got: Any, expected: Any) -> str:
    """"expected ..., got ..." for a failure message about a computed value. When a Python
    float is asked for, a tensor holding the right number is the mistake: say it is a tensor."""
    got_text = shown(got)
    if isinstance(expected, float) and (isinstance(got, Tensor) or
                                        (isinstance(got, dict) and "tensor" in got)):
        got_text = f"a tensor holding {got_text}"
    return f"expected {shown(expected)}, got {got_text}"


def judged(check: Callable[[], None]) -> tuple[str, str]:
    """In the judge: run a check of this package on data (never a learner's object) and return
    ("passed", its success line), ("failed", its message) or ("not attempted", why)."""
    _collecting.lines = []
    try:
        check()
        lines = _collecting.lines
    except NotAnswered as error:
        return "not attempted", str(error)
    except CheckFailed as error:
        return "failed", str(error)
    finally:
        _collecting.lines = None
    if not lines:
        return "failed", "the check reported no verdict"
    return "passed", "\n".join(lines)


def show_graphs(pictures: list[tuple[str, Tensor]], names: dict | None = None,
                view: str = "forward") -> None:
    """Draw graphs side by side under their titles ("your graph", "the expected graph") when
    running in Jupyter; elsewhere (a terminal, the grader) the words of the message do."""
    if _notebook.running_shell() is None or not _notebook.drawing():
        return
    from IPython.display import HTML, display

    display(HTML(graphs_html(pictures, names, view)))


def graphs_html(pictures: list[tuple[str, Tensor]], names: dict | None = None,
                view: str = "forward") -> str:
    """Each graph in a figure of its own, its caption above it: however wide the graphs, a
    caption never sits over another graph (a row that wraps moves caption and graph together)."""
    from minigrad import viz

    def figure(title: str, t: Tensor) -> str:
        picture = viz.draw(t, names=names, view=view)._repr_svg_()
        return (f"<figure style='margin:0'><figcaption><b>{html.escape(title)}</b>"
                f"</figcaption>{picture}</figure>")

    return ("<div style='display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start'>" +
            "".join(figure(title, t) for title, t in pictures) + "</div>")


_notebook.install()  # every check module imports this one: one-line "not answered yet" in IPython
# numpy, minigrad and this package as they are on import; the grader's kernel sets its own, once
# it has imported everything (one snapshot fewer for each notebook graded).
_PRISTINE: snapshot.Snapshot | None = None if _notebook.grading() else snapshot.Snapshot()
