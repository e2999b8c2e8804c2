"""What the feedback on a wrong answer must say (issue 30 item 4), for the tables of answers in
tests/course/answers/.

A row of those tables ends in PASS, or in FAIL("words", ..., never=("value", ...)): the answer
must fail, and its feedback must name the misconception (contain every word, case aside)
without giving the answer away (contain none of the values: the right prediction, the line
that fixes it). FAIL(..., shows_got=True): the feedback also shows the number the answer gave
("got ... 3.5")."""
from __future__ import annotations

import re
from typing import NamedTuple

PASS = True


class Fails(NamedTuple):
    words: tuple[str, ...]
    never: tuple[str, ...]
    shows_got: bool = False


def FAIL(*words: str, never: tuple[str, ...] = (),  # noqa: N802 - the row's verdict
         shows_got: bool = False) -> Fails:
    assert words and never, "a wrong answer lists what its feedback says and what it must not"
    return Fails(words, tuple(never), shows_got)


def fails(passes: bool | Fails) -> bool:
    return isinstance(passes, Fails)


def assert_names_the_misconception(message: str, expected: Fails) -> None:
    missing = [word for word in expected.words if word.lower() not in message.lower()]
    given_away = [value for value in expected.never if value in message]
    assert not missing and not given_away, (missing, given_away, message)
    if expected.shows_got:
        assert re.search(r"got [^,]*\d", message), f"what the answer gave is not shown: {message}"
