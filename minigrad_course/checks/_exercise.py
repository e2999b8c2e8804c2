"""One place per exercise: an `Exercise` says which inputs to draw, how to call the learner's
function on them, and how to judge what came back, in three halves that run where they must:

- `cases(rng, **options)`: plain data (numbers, arrays, lists), drawn from `rng`. In the
  notebook `rng` has the exercise's fixed seed; the grader's judge draws from a secret one, so
  a graded answer meets graphs and numbers its author has never seen.
- `run(*functions, case)`: in the learner's process (the notebook's kernel, or the grader's
  sandboxed worker), builds the inputs from the case, calls the learner's functions, and returns
  data only (`_data.value_data`), with what a `Watch` saw (backward passes, forbidden calls,
  recursion). Nothing of the judge is there to read: no expected value ever enters that process.
- `judge(checks, case, got)`: in the judge's process (or the notebook's), computes the expected
  result itself with minigrad or numpy and records each property that fails. What only the
  learner's process could observe can add failures; credit comes from what `judge` computes.

`check.walk(reachable_nodes)` in a notebook runs all three in the learner's kernel, through the
same data round trip as the grader, and prints the success line or raises CheckFailed. A
prediction check (`@prediction`) takes the learner's values themselves: the grader reads them
from the answer cell's text (`grade.literal`) and calls the check in the judge."""
from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _feedback
from ._data import round_trip
from ._feedback import Checks, CheckFailed, NotAnswered, learner_line

PASSED, FAILED, NOT_ATTEMPTED = "passed", "failed", "not attempted"
MAX_MESSAGE = 2_000  # characters kept of an exception's message


class Raised(Exception):
    """The learner's code raised while `run` called it: ends the case, carried as data."""

    def __init__(self, data: dict) -> None:
        super().__init__(data.get("message", ""))
        self.data = data


def call(function: Any, *args: Any, doing: str = "calling it", **kwargs: Any) -> Any:
    """Call the learner's code (in `run`): its exception becomes `Raised` data naming the
    learner's line; NotImplementedError means not answered yet."""
    if not callable(function):
        raise Raised({"not_callable": type(function).__name__[:100], "doing": doing})
    try:
        return function(*args, **kwargs)
    except NotImplementedError:
        raise Raised({"not_answered": True}) from None
    except CheckFailed:
        raise
    except Exception as error:  # noqa: BLE001 - any crash of the learner's code is feedback
        try:
            message = str(error)
        except Exception:  # noqa: BLE001 - a learner's exception whose str() fails
            message = ""
        if len(message) > MAX_MESSAGE:
            message = f"{message[:MAX_MESSAGE]} ... ({len(message) - MAX_MESSAGE} more characters)"
        raise Raised({"doing": doing, "type": type(error).__name__[:100], "message": message,
                      "line": learner_line(error)[:300]}) from None


def prediction(check: Callable) -> Callable:
    """Marks a check that takes predicted values: the grader reads them from the answer cell's
    text and judges them in its own process, where no learner's code runs."""
    check.is_prediction = True
    return check


@dataclass
class Exercise:
    subject: str  # "reachable_nodes(t)", as messages name it
    names: tuple[str, ...]  # the parameters the check takes: the learner's functions
    cases: Callable[..., list]
    run: Callable[..., Any]
    judge: Callable[[Checks, Any, Any], None]
    success: str | Callable[..., str]
    seed: int = 0
    finish: Callable[[Checks, list, list], None] | None = None  # properties over all cases
    hints: dict[str, str] = field(default_factory=dict)  # error text -> what to look at
    buggy: tuple[str, str] | None = None  # (the read-only cell's buggy code, its name)
    options: dict[str, Any] = field(default_factory=dict)  # keyword arguments and defaults
    # In the notebook, after a failure: (caption, tensor) pairs to draw, from the functions.
    picture: Callable[..., list] | None = None

    def __post_init__(self) -> None:
        parameters = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                      for name in self.names]
        parameters += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=value)
                       for name, value in self.options.items()]
        self.__signature__ = inspect.Signature(parameters)

    def __call__(self, *functions: Any, **options: Any) -> None:
        """In the notebook: the whole check, in the learner's process, on the fixed cases."""
        _feedback.refuse_if_tampered()
        cases = self.draw(np.random.default_rng(self.seed), options)
        results = [round_trip(self.run_case(functions, case)) for case in cases]
        status, message = self.evaluate(cases, results, options)
        if status == NOT_ATTEMPTED:
            raise NotAnswered(message)
        if status == FAILED:
            if self.picture is not None:
                try:
                    _feedback.show_graphs(self.picture(*functions))
                except Exception:  # noqa: BLE001 - no picture: the message still says it all
                    pass
            raise CheckFailed(message)
        _feedback.succeed(message)

    def draw(self, rng: np.random.Generator, options: dict) -> list:
        return self.cases(rng, **{**self.options, **options})

    def run_case(self, functions: tuple, case: Any) -> Any:
        """In the learner's process: one case's data, or what stopped it."""
        if self.buggy is not None and functions and \
                _feedback.is_untouched(functions[0], *self.buggy):
            return {"untouched": True}
        try:
            return {"got": self.run(*functions, case)}
        except Raised as raised:
            return {"raised": raised.data}
        except CheckFailed as refused:  # a Watch refusing to judge
            return {"refused": str(refused)}

    def evaluate(self, cases: list, results: list, options: dict | None = None
                 ) -> tuple[str, str]:
        """In the judge: (status, message) for what `run_case` returned on each case."""
        checks = Checks(self.subject, trusted=True)
        try:
            for case, result in zip(cases, results, strict=True):
                self._judge_one(checks, case, result)
            if self.finish is not None:
                self.finish(checks, cases, [result.get("got") for result in results])
        except NotAnswered as unanswered:
            return NOT_ATTEMPTED, str(unanswered)
        except CheckFailed as failure:
            return FAILED, str(failure)
        if checks.failures:
            return FAILED, checks.message()
        success = self.success
        return PASSED, success(**{**self.options, **(options or {})}) \
            if callable(success) else success

    def _judge_one(self, checks: Checks, case: Any, result: Any) -> None:
        if not isinstance(result, dict):
            checks.fail_now("the check's run reported nothing it could read.")
        if result.get("untouched"):
            name = self.buggy[1] if self.buggy else self.subject
            raise NotAnswered(f"{name} is still the buggy one from the cell above; write the "
                              "fixed version in the answer cell and run it.")
        if "refused" in result:
            checks.fail_now(str(result["refused"]).removeprefix("✗ "))
        raised = result.get("raised")
        if isinstance(raised, dict):
            if raised.get("not_answered"):
                checks.not_answered()
            if "not_callable" in raised:
                checks.fail_now(f"{self.subject} should be a function, but it is of type "
                                f"{raised['not_callable']}.")
            message = (f"{raised.get('doing', 'calling it')} raised {raised.get('type')}: "
                       f"{raised.get('message', '')}")
            if raised.get("line"):
                message += f"\n    at {raised['line']}"
            for fragment, hint in self.hints.items():
                if fragment in str(raised.get("message", "")):
                    message += f"\n    Hint: {hint}"
            checks.fail_now(message)
        self.judge(checks, case, result.get("got"))
