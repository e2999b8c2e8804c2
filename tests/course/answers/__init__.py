"""The answers learners write, right and wrong, one table per exercise (issues 11, 21 and 35):
`exNN_name.py` holds ROWS for the checks of minigrad_course/checks/name.py, exercise NN's and
lesson NN's builds'. tests/course/test_answers.py runs every row.

A row is (checks, answer, verdict):
- checks: "module.function" of minigrad_course.checks, or "module.visible+hidden" for the
  checks a check cell calls one after the other (a row passes when every one passes);
- answer: code as the learner types it in the answer cell, run in the exercise's namespace
  (`torch` is minigrad, `check` the check module);
- verdict: PASS, or FAIL("words", ..., never=("value", ...)) (feedback_words.py): the answer
  fails, and its feedback names the misconception without giving the answer away.

Wrong answers are the plausible mistakes (issue 11) and the shortcuts of a learner trying to get
past the check (issue 21): a result hard-coded for the one input tested, gradients written out
by hand, a backward where it is forbidden, answers borrowed from the check or the engine,
recursion with a raised limit, side effects left undone. Right answers other than the worked
one must pass.

Tests only: nothing here is in the installed package, which carries no worked answers."""
from __future__ import annotations

import importlib
from pathlib import Path

EXERCISES = sorted(path.stem for path in Path(__file__).parent.glob("ex*.py"))
TABLES = {name: importlib.import_module(f"{__name__}.{name}").ROWS for name in EXERCISES}
