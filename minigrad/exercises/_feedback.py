"""What every check shares: one verdict per property, then a short success line or a
`CheckFailed` that lists each property that failed, what was expected (in words) and a hint.
A message never states the answer itself."""
from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from ..tensor import Tensor

TOLERANCE = 1e-4


class CheckFailed(AssertionError):
    """A check's verdict. Jupyter shows only its message: a traceback through the checking code
    would bury the hint under code the learner did not write."""

    def _render_traceback_(self) -> list[str]:  # IPython calls this instead of formatting frames
        return str(self).splitlines()


class Checks:
    """Collects the verdict on each property, so one mistake does not hide the others."""

    def __init__(self, subject: str) -> None:
        self.subject = subject
        self.failures: list[str] = []
        self.count = 0

    def expect(self, ok: bool | Callable[[], bool], failure: str) -> bool:
        """Record one property; `ok` may be a callable, and if it raises, the property failed."""
        self.count += 1
        try:
            holds = bool(ok() if callable(ok) else ok)
        except NotImplementedError:
            raise
        except Exception as error:  # noqa: BLE001 - the learner's object broke the test itself
            holds = False
            failure += f" (checking it raised {type(error).__name__}: {error})"
        if not holds:
            self.failures.append(failure)
        return holds

    def call(self, function: Any, *args: Any, hints: dict[str, str] | None = None,
             doing: str = "calling it", **kwargs: Any) -> Any:
        """Run the learner's code; a crash ends the check at once, since nothing else can be
        judged. NotImplementedError passes through: it means "not attempted yet".
        `hints` maps a piece of an error message to what to look at when it appears."""
        if not callable(function):
            self.fail_now(f"{self.subject} should be a function, but it is of type "
                          f"{type(function).__name__}.")
        try:
            return function(*args, **kwargs)
        except NotImplementedError:
            raise
        except Exception as error:  # noqa: BLE001 - any crash of learner code is feedback
            message = f"{doing} raised {type(error).__name__}: {error}"
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
            if len(self.failures) == 1:
                raise CheckFailed(f"✗ {self.subject}: {self.failures[0]}")
            count = f"{len(self.failures)} of {max(self.count, 1)} checks failed"
            lines = [f"✗ {self.subject}: {count}"]
            lines += [f"  ✗ {failure}" for failure in self.failures]
            raise CheckFailed("\n".join(lines))
        sys.stdout.write(f"✓ {success}\n")  # one write: Jupyter shows it as one output


def as_array(value: Any) -> np.ndarray | None:
    """A learner's numeric answer (number, list, numpy array or tensor) as a float array."""
    if isinstance(value, Tensor):
        return np.asarray(value.detach()._data, dtype=float)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return array


def same_numbers(answer: Any, expected: Any) -> bool:
    """True when `answer` holds the numbers of `expected` (shape included, up to rounding)."""
    mine, theirs = as_array(answer), as_array(expected)
    if mine is None or theirs is None:
        return False
    if mine.shape != theirs.shape and mine.size == theirs.size == 1:
        mine, theirs = mine.reshape(()), theirs.reshape(())
    return mine.shape == theirs.shape and bool(np.allclose(mine, theirs, rtol=TOLERANCE,
                                                           atol=TOLERANCE))


def is_number(value: Any) -> bool:
    array = as_array(value)
    return array is not None and array.size == 1 and math.isfinite(float(array.reshape(())))


def describe(value: Any) -> str:
    """What kind of answer the learner gave, in words, without judging it."""
    if value is None:
        return "None"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, bool):
        return "a bool"
    array = as_array(value)
    if array is None:
        return f"a {type(value).__name__}"
    return "a number" if array.size == 1 else f"numbers of shape {tuple(array.shape)}"


def show_graphs(pictures: list[tuple[str, Tensor]], names: dict | None = None,
                view: str = "forward") -> None:
    """Draw graphs side by side under their titles ("your graph", "the expected graph") when
    running in Jupyter; elsewhere (a terminal, the grader) the words of the message do."""
    shell = sys.modules.get("IPython")
    if shell is None or getattr(shell, "get_ipython", lambda: None)() is None:
        return
    from IPython.display import HTML, display

    from .. import viz

    def svg(title: str, t: Tensor) -> str:
        picture = viz.draw(t, names=names, view=view)._repr_svg_()
        return f"<div style='display:inline-block;margin-right:2em'><b>{title}</b>{picture}</div>"

    display(HTML("".join(svg(title, t) for title, t in pictures)))
