"""Predict-the-output exercises show a short snippet; the check runs that very snippet (the
same text the notebook shows, a test keeps them equal) with `torch` meaning minigrad and
compares what each `print` would have shown with the learner's predictions."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, as_array, describe, same_numbers

RAISES = "error"  # what a learner writes for a line that raises instead of printing


def printed_values(source: str) -> list[Any]:
    """What each `print(...)` of the snippet shows, in order, as None, a number array or
    "error" (for the print a raised exception never reached, which ends the snippet).
    Tensors are copied when printed: a later in-place change must not rewrite history."""
    import minigrad

    shown: list[Any] = []

    def record(*values: Any, **_: Any) -> None:
        value = values[0] if values else None
        shown.append(np.array(value.detach()._data) if isinstance(value, Tensor) else value)

    namespace = {"torch": minigrad, "print": record}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the snippet may read a non-leaf .grad on purpose
        try:
            exec(compile(source, "<snippet>", "exec"), namespace)  # noqa: S102 - our own text
        except Exception:  # noqa: BLE001 - any error is what the learner predicts as "error"
            shown.append(RAISES)
    return shown


def matches(answer: Any, actual: Any) -> bool:
    """Does a prediction (None, "error", a bool, numbers) describe what was printed?"""
    if actual is None:
        return answer is None
    if isinstance(actual, str):  # a printed text, or RAISES, which any capitalization matches
        return isinstance(answer, str) and (answer.strip() == actual or
                                            actual == RAISES == answer.strip().lower())
    if isinstance(actual, bool):
        return isinstance(answer, bool) and answer == actual
    return same_numbers(answer, actual)


def shape_note(answer: Any, actual: Any) -> str:
    """When a numeric prediction has the wrong shape, say which shape is printed (without
    saying the numbers): writing 12 for tensor([12., 12.]) is a different slip from a wrong 12."""
    mine, printed = as_array(answer), as_array(actual)
    if mine is None or printed is None or isinstance(actual, bool) or mine.shape == printed.shape:
        return ""
    if mine.size == printed.size == 1:
        return ""
    if printed.size == 1:
        return "; it prints a single number"
    return (f"; it prints {printed.size} numbers, shape {tuple(printed.shape)}: write them "
            "as a list")


def text_note(answer: Any, actual: Any) -> str:
    """When a prediction is written as the text a print shows ("None", "tensor([4.])") where
    the print is a value, say how to write it: the text can never match, whatever it says, and
    "not what it prints" would send the learner to rethink a prediction that may be right."""
    if not isinstance(answer, str) or isinstance(actual, str) or answer.strip().lower() == RAISES:
        return ""
    text = answer.strip()
    if text in ("None", "True", "False"):
        return f"; you wrote the text {text!r}: write {text} without quotes"
    return (f"; you wrote the text {text[:40]!r}: write a printed tensor's numbers as a number, "
            "or a list of numbers, without quotes")


def check_predictions(subject: str, answers: Any, sources: str | list[str], labels: list[str],
                      success: str, hint: str | None = None) -> None:
    """The learner's list `answers` against what the snippet (or each of several snippets,
    run separately) prints, marked as a whole: a failure does not say which prediction was
    wrong, or a second try would be a guess per line rather than a prediction, and it gives no
    hint per line (a hint about one print gives that print away). It names the idea to apply,
    the success line's, and predictions whose shape or form (a text) the print cannot have.
    `hint` is for a single prediction, where saying it is wrong reveals nothing more."""
    actual = [value for source in ([sources] if isinstance(sources, str) else sources)
              for value in printed_values(source)]
    assert len(actual) == len(labels), "snippet and labels disagree"  # our bug
    assert (len(actual) == 1) == (hint is not None), "a hint is for a single prediction only"
    checks = Checks(subject)
    if len(actual) == 1:  # a single prediction is written as it is, not as a list of one
        answers = [answers]
    if not isinstance(answers, (list, tuple)) or len(answers) != len(actual):
        checks.fail_now(f"expected a list of {len(actual)} predictions, one per print "
                        f"(each a number, a list of numbers, None or {RAISES!r}); "
                        f"got {describe(answers)}.")
    if all(matches(answer, value) for answer, value in zip(answers, actual)):
        checks.verdict(success)
        return
    if len(actual) == 1:
        if note := text_note(answers[0], actual[0]):
            checks.fail_now(f"{note.removeprefix('; ')}.")
        checks.fail_now(f"that is not what it prints (you wrote {describe(answers[0])}"
                        f"{shape_note(answers[0], actual[0])}). Hint: {hint}")
    to_fix = [f"{label}: {note.removeprefix('; ')}"
              for answer, value, label in zip(answers, actual, labels)
              if (note := text_note(answer, value) or shape_note(answer, value))]
    idea = success.split(": ", 1)[-1]
    text = (f"not all {len(actual)} are what the code prints. The check does not say which, "
            "so that a second try is a new prediction rather than a guess: read the code again, "
            "one print at a time, against the lesson with this notebook's number.")
    if to_fix:
        text += " To fix first: " + "; ".join(to_fix) + "."
    checks.fail_now(f"{text} Hint: {idea[0].lower()}{idea[1:]}")
