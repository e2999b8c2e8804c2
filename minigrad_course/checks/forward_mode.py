"""Checks for exercises/ex17_forward_mode.ipynb and lesson 17's build: dual numbers, forward
mode, and what each direction of differentiation costs."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, same_numbers
from ._snippets import check_predictions

PASSES_SNIPPETS = {
    "tall": """\
W = torch.ones(4, 2) * 0.5
passes = []


def f(t):
    t.register_hook(lambda grad: passes.append(1))
    return (W @ t).tanh()


torch.autograd.functional.jacobian(f, torch.ones(2))
print(len(passes))""",
    "wide": """\
V = torch.ones(1, 6)
passes = []


def h(t):
    t.register_hook(lambda grad: passes.append(1))
    return (V @ t).exp()


torch.autograd.functional.jacobian(h, torch.ones(6))
print(len(passes))""",
}


@prediction
def passes(answers: Any) -> None:
    check_predictions("your 2 predictions", answers, list(PASSES_SNIPPETS.values()),
                      ["program 1 (W of shape (4, 2))", "program 2 (V of shape (1, 6))"],
                      "Both right: reverse mode takes one backward pass per element of the "
                      "output, whatever the number of inputs.")


def _tensor(numbers: Any) -> Tensor:
    return tensor_of(np.array(numbers, dtype=np.float32))


def dual_rules(dual: Callable) -> None:
    """Lesson 17's build: Dual's product and sin give the value and the tangent of the rules
    (a b, a' b + a b') and (sin a, a' cos a), on random values and tangents, and compose."""
    checks = Checks("Dual")
    rng = np.random.default_rng(170)
    a, da, b, db = rng.uniform(-2, 2, size=(4, 3)).astype(np.float32)
    x, dx = a.astype(np.float64), da.astype(np.float64)
    y, dy = b.astype(np.float64), db.astype(np.float64)
    cases = [("Dual(a, da) * Dual(b, db)", lambda: dual(_tensor(a), _tensor(da)) *
              dual(_tensor(b), _tensor(db)), (x * y, dx * y + x * dy)),
             ("Dual(a, da).sin()", lambda: dual(_tensor(a), _tensor(da)).sin(),
              (np.sin(x), dx * np.cos(x))),
             ("(Dual(a, da) * Dual(a, da)).sin()", lambda: (dual(_tensor(a), _tensor(da)) *
                                                           dual(_tensor(a), _tensor(da))).sin(),
              (np.sin(x * x), 2 * x * dx * np.cos(x * x)))]
    for words, make, (value, tangent) in cases:
        with Watch(given=(make, _tensor)):
            got = checks.call(make, doing=words)
        checks.expect(same_numbers(value_data(getattr(got, "value", None)), value),
                      f"{words}: its value is not the operation's result on the values.")
        checks.expect(same_numbers(value_data(getattr(got, "tangent", None)), tangent),
                      f"{words}: its tangent is not the rule's. Hint: a tangent is made from "
                      "the inputs' values and tangents, as the rules above write it.")
        if checks.failures:
            break
    checks.verdict("Dual's product and sin follow the rules, alone and composed.")


class _Given:
    """The exercise's read-only Dual (value and tangent; sum, product, sine): what the check
    hands the learner's rules, so that they may use its operations."""

    def __init__(self, value: Any, tangent: Any) -> None:
        self.value, self.tangent = value, tangent

    def __add__(self, other: _Given) -> _Given:
        return _Given(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other: _Given) -> _Given:
        return _Given(self.value * other.value,
                      self.tangent * other.value + self.value * other.tangent)

    def sin(self) -> _Given:
        return _Given(self.value.sin(), self.tangent * self.value.cos())


# Exercise 17's two rules. A case is [values and tangents of a and b]; b stays away from 0.
def _rules_cases(rng: np.random.Generator) -> list[list]:
    cases = []
    for _ in range(3):
        a, da, db = rng.uniform(-1.5, 1.5, size=(3, 3))
        b = rng.uniform(0.5, 2.0, size=3) * rng.choice([-1.0, 1.0], size=3)
        cases.append([a.tolist(), da.tolist(), b.tolist(), db.tolist()])
    return cases


def _rules_run(dual_exp: Callable, dual_div: Callable, case: list) -> dict:
    a, da, b, db = (_tensor(numbers) for numbers in case)
    results = {}
    given = (_Given.__init__, _Given.__add__, _Given.__mul__, _Given.sin)  # theirs to use
    for name, rule, args in (("exp", dual_exp, (_Given(a, da),)),
                             ("div", dual_div, (_Given(a, da), _Given(b, db)))):
        with Watch(given=given):
            got = call(rule, *args, doing=f"dual_{name}(...)")
            results[name] = [value_data(getattr(got, "value", None)),
                             value_data(getattr(got, "tangent", None))]
    return results


def _rules_judge(checks: Checks, case: list, got: dict) -> None:
    a, da, b, db = (np.array(numbers, dtype=np.float32).astype(np.float64) for numbers in case)
    exact = {"exp": (np.exp(a), da * np.exp(a)),
             "div": (a / b, (da * b - a * db) / (b * b))}
    words = {"exp": "dual_exp(a)", "div": "dual_div(a, b)"}
    for name, (value, tangent) in exact.items():
        value_got, tangent_got = got[name]
        checks.expect(same_numbers(value_got, value),
                      f"{words[name]}: its value is not the operation's result on the values.")
        checks.expect(same_numbers(tangent_got, tangent),
                      f"{words[name]}: its tangent is not the derivative carried along. Hint: "
                      "differentiate the operation by hand, with a' and b' for the inputs' "
                      "derivatives.")


rules = Exercise(
    "dual_exp and dual_div", ("dual_exp", "dual_div"), cases=_rules_cases, run=_rules_run,
    judge=_rules_judge, seed=171,
    success="dual_exp and dual_div carry the value and its derivative, for 3 random pairs.")


# Exercise 17's Jacobian by columns. A kind is (words, f on the notebook's Dual or on the
# check's tensors, its Jacobian worked out by hand at x for the matrices W and V).
def _columns_kind(kind: str, W: Tensor, V: Tensor) -> tuple[str, Callable, Callable]:
    return {
        "elementwise": ("f(t) = t * t.sin() + t", lambda t: t * t.sin() + t,
                        lambda x, w, v: np.diag(np.sin(x) + x * np.cos(x) + 1)),
        "mixed": ("f(t) = t.mixed(W).sin(), W of shape (2, 3)", lambda t: t.mixed(W).sin(),
                  lambda x, w, v: np.cos(w @ x)[:, None] * w),
        "product": ("f(t) = t.mixed(W) * t.mixed(V), W and V of shape (2, 3)",
                    lambda t: t.mixed(W) * t.mixed(V),
                    lambda x, w, v: (v @ x)[:, None] * w + (w @ x)[:, None] * v),
    }[kind]


def _columns_cases(rng: np.random.Generator) -> list[list]:
    return [[kind, rng.uniform(-1, 1, size=3).tolist(), rng.uniform(-1, 1, size=(2, 3)).tolist(),
             rng.uniform(-1, 1, size=(2, 3)).tolist()]
            for kind in ("elementwise", "mixed", "product")]


def _ready_made() -> dict[Callable, str]:
    from minigrad.autograd import functional

    return {getattr(functional, name): f"torch.autograd.functional.{name}"
            for name in ("jacobian", "jvp", "vjp")}


def _columns_run(jacobian_by_columns: Callable, case: list) -> dict:
    _, f, _ = _columns_kind(case[0], _tensor(case[2]), _tensor(case[3]))
    calls = []

    def counted(t: Any) -> Any:
        calls.append(1)
        return f(t)

    x = _tensor(case[1])
    with Watch(_ready_made(), given=(counted, f)) as watch:
        got = call(jacobian_by_columns, counted, x, doing="jacobian_by_columns(f, x)")
    return {"result": value_data(got), "calls": len(calls), "passes": len(watch.runs),
            "called": watch.called}


def _columns_judge(checks: Checks, case: list, got: dict) -> None:
    words, _, exact = _columns_kind(case[0], None, None)
    x, w, v = (np.array(numbers, dtype=np.float32).astype(np.float64) for numbers in case[1:])
    which = f"for {words}"
    if got["called"] or got["passes"]:
        checks.fail_now(f"{which}, it ran a backward pass"
                        f"{' through ' + got['called'][0] if got['called'] else ''}: build "
                        "each column with one forward pass of Dual numbers instead.")
    checks.expect(same_numbers(got["result"], exact(x, w, v)),
                  f"{which}, it is not the Jacobian, one row per output and one column per "
                  "input. Hint: which direction gives column j, and how do columns become a "
                  "matrix?")
    checks.expect(got["calls"] == len(x),
                  f"{which}, f ran {got['calls']} times: one forward pass per input gives "
                  "one column each.")


jacobian_by_columns = Exercise(
    "jacobian_by_columns(f, x)", ("jacobian_by_columns",), cases=_columns_cases,
    run=_columns_run, judge=_columns_judge, seed=172,
    success="jacobian_by_columns builds the Jacobian of 3 functions from one forward pass "
            "per input, without a backward pass.")
