"""The verdict on each exercise, computed in the grader's own process, where no learner's code
runs: the notebook's cells run in a worker (`worker.Session`, contained by `sandbox`); where a
check cell stood, the judge
- for a prediction, reads the values from the answer cell's text (`literal`) and calls the
  check here, which runs the snippet with this process's minigrad;
- for a function, draws the check's cases from a secret seed (inputs the learner has never
  seen), asks the worker to call the learner's functions on them, and judges the data that
  comes back with the check's own `judge` half, which computes every expected value here.
The check cell's text never runs, and the worker's replies are claims: what only the worker can
see (a backward pass, a forbidden call, recursion) can take credit away, never give it."""
from __future__ import annotations

import importlib
import json
import secrets
import threading
from dataclasses import dataclass

import numpy as np

from ..checks import _feedback
from ..checks._data import encode
from ..checks._exercise import FAILED, NOT_ATTEMPTED, PASSED, Exercise
from ..checks._feedback import same_numbers
from ..integrity.canary import canary, canary_numbers
from . import literal
from .plan import CheckCall, Plan, Step
from .worker import Outcome, Session

# The checks share minigrad's global state here (its random generator, grad mode) while
# --jobs grades notebooks on several threads: one judgement at a time.
JUDGING = threading.Lock()
NOT_RUN = "not run: earlier cells broke the kernel too many times"
# nbgrader's placeholder raises NotImplementedError; a check raises NotAnswered (a subclass).
UNANSWERED = ("NotImplementedError", "NotAnswered")


@dataclass
class Limits:
    cell: float
    notebook: float

    def stopped(self, outcome: Outcome, what: str) -> str:
        if outcome.out_of_time:
            return (f"{what} was stopped: the whole notebook may run {self.notebook:g} s, "
                    "and had used it up")
        return f"{what} ran longer than {self.cell:g} s and was stopped"

    def not_run(self, outcome: Outcome) -> str:
        if outcome.out_of_time:
            return f"not run: the notebook used up its {self.notebook:g} s"
        return NOT_RUN


def modules_of(plan: Plan) -> list[str]:
    return sorted({call.module for step in plan.steps for call in step.calls})


def judge_notebook(plan: Plan, session: Session, limits: Limits,
                   shown: dict[int, list] | None = None) -> dict[str, tuple[str, str]]:
    """(status, message) per exercise that has an answer cell in the notebook. With `shown`
    (the tests' run of a solution), the check cells run in the worker too, before they are
    judged, and what each reference cell showed is put in `shown` by its `Step.cell`."""
    rng = np.random.default_rng(secrets.randbits(128))
    answers: dict[str, tuple[Step, Outcome]] = {}
    verdicts: dict[str, tuple[str, str]] = {}
    values: dict = {}  # names the learner's own cells set to plain values, so far
    for step in plan.steps:
        keep = shown is not None and step.cell is not None
        if step.role != "check" or keep:
            outcome = session.ask({"source": step.source, "outputs": keep})
            if keep:
                shown[step.cell] = json.loads("".join(outcome.reply.get("outputs", ["[]"])))
        if step.role != "check":
            if step.role == "answer":
                answers[step.exercise] = (step, outcome)
            elif step.learner:
                values.update(literal.values_set(step.source))
            continue
        answer, outcome = answers[step.exercise]
        verdicts[step.exercise] = _answer_verdict(outcome, limits) or \
            _checks_verdict(step, answer, values, session, limits, rng)
    for exercise, (_, outcome) in answers.items():
        if exercise not in verdicts:  # its check cell is missing from the reference
            verdicts[exercise] = _answer_verdict(outcome, limits) or (
                FAILED, "its check cell is missing: restore it from exercises/ to be graded")
    return verdicts


def _answer_verdict(answer: Outcome, limits: Limits) -> tuple[str, str] | None:
    """What the answer cell's run alone decides (None: it ran, on to the checks)."""
    if answer.error in UNANSWERED:
        return NOT_ATTEMPTED, ""
    if not answer.ran:
        return FAILED, limits.not_run(answer)
    if answer.timed_out:
        return FAILED, limits.stopped(answer, "your answer cell") + " (an endless loop?)"
    if answer.exited:
        return FAILED, "your answer cell called exit() (the kernel was restarted for the rest)"
    if answer.broke_kernel:
        return FAILED, "your answer cell killed the kernel (it was restarted for the rest)"
    if answer.error:
        return FAILED, f"your answer cell raised {answer.error}: {answer.message}"
    return None


def _checks_verdict(step: Step, answer: Step, values: dict, session: Session, limits: Limits,
                    rng: np.random.Generator) -> tuple[str, str]:
    """Every check call of the cell, visible and hidden, in order: the first that does not
    pass decides; all passing, their success lines."""
    if not step.calls:
        return FAILED, "its check cell calls no check of this course"
    passed = []
    for call in step.calls:
        check = getattr(importlib.import_module(call.module), call.check, None)
        if getattr(check, "is_prediction", False):
            status, message = _prediction(check, call, answer, values)
        elif isinstance(check, Exercise):
            status, message = _function(check, call, session, limits, rng)
        else:
            status, message = FAILED, f"the check {call.check} is not one the judge knows"
        if status != PASSED:
            return status, "" if status == NOT_ATTEMPTED else message.removeprefix("✗ ")
        passed.append(f"✓ {message}")
    return PASSED, "\n".join(passed)


def _prediction(check: object, call: CheckCall, answer: Step, values: dict) -> tuple[str, str]:
    name = call.names[0] if call.names else ""
    try:
        value = literal.prediction(answer.source, name, values)
    except literal.Unanswered:
        return NOT_ATTEMPTED, ""
    except SyntaxError as error:
        return FAILED, f"your answer cell raised SyntaxError: {error.msg} (line {error.lineno})"
    except literal.NotValues as error:
        return FAILED, (f"your answer cell must hold values only, written before running "
                        f"anything: {error}. A prediction is numbers, lists, None, True/False "
                        "or 'error', not the output of running the code.")
    with JUDGING:
        try:
            return _feedback.judged(lambda: check(value, **call.options))
        except Exception as error:  # noqa: BLE001 - values the learner wrote: never the run's end
            return FAILED, f"your prediction could not be judged ({type(error).__name__})"


def _function(check: Exercise, call: CheckCall, session: Session, limits: Limits,
              rng: np.random.Generator) -> tuple[str, str]:
    with JUDGING:
        cases = check.draw(rng, call.options)
        encode(cases)  # our own cases must travel: a bug here is the grader's, not the learner's
        numbers = canary_numbers(rng)
        expected_canary = canary(numbers)
    request = {"probe": {"module": call.module, "check": call.check, "names": list(call.names),
                         "cases": cases, "canary": numbers}}
    outcome = session.ask(request)
    if not outcome.ran:
        return FAILED, limits.not_run(outcome)
    if outcome.timed_out:
        return FAILED, limits.stopped(outcome, "the check") + " (does your code loop forever?)"
    if outcome.exited:
        return FAILED, "your code called exit() while the check ran"
    if outcome.broke_kernel:
        return FAILED, "the check killed the kernel while running your code"
    if outcome.error:
        return FAILED, f"the check raised {outcome.error}: {outcome.message}"
    reply = outcome.reply
    if reply.get("missing"):
        return FAILED, (f"`{reply['missing'][0]}` is not defined when the check runs: keep its "
                        "definition in the answer cell")
    results = reply.get("results")
    if not isinstance(results, list) or len(results) != len(cases):
        return FAILED, "the worker's reply to the check could not be read"
    found = reply.get("canary")
    if not (isinstance(found, dict) and all(
            same_numbers(found.get(key), value) for key, value in expected_canary.items())):
        return FAILED, ("the notebook changed how minigrad computes gradients (a test "
                        "computation run beside your code came out wrong), so no answer of it "
                        "can be judged: remove the code that changes minigrad or its engine")
    with JUDGING:
        try:
            return check.evaluate(cases, results, call.options)
        except Exception as error:  # noqa: BLE001 - whatever the reply makes the judge do
            # A reply of a shape no run half writes (lists cut short, numbers too large to
            # read), written by the learner's process: no credit, and the class goes on.
            return FAILED, (f"the reply from your notebook's process could not be judged "
                            f"({type(error).__name__}): was the grading machinery changed?")
