"""What the feedback on a wrong answer must say (issue 30 item 4), for the tables of answers in
tests/course/test_wrong_answers.py and tests/course/test_check_answers.py.

A row of those tables ends in PASS, or in FAIL("words", ..., never=("value", ...)): the answer
must fail, and its feedback must name the misconception (contain every word, case aside)
without giving the answer away (contain none of the values: the right prediction, the line
that fixes it)."""
from __future__ import annotations

from typing import NamedTuple

PASS = True


class Fails(NamedTuple):
    words: tuple[str, ...]
    never: tuple[str, ...]


def FAIL(*words: str, never: tuple[str, ...] = ()) -> Fails:  # noqa: N802 - the row's verdict
    assert words and never, "a wrong answer lists what its feedback says and what it must not"
    return Fails(words, tuple(never))


def fails(passes: bool | Fails) -> bool:
    return isinstance(passes, Fails)


def assert_names_the_misconception(message: str, expected: Fails) -> None:
    missing = [word for word in expected.words if word.lower() not in message.lower()]
    given_away = [value for value in expected.never if value in message]
    assert not missing and not given_away, (missing, given_away, message)
