"""Checks for exercises/ex15_second_derivatives.ipynb and lesson 15's build: create_graph, a
gradient differentiated again."""
from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, same_numbers
from ._graphs import reaches
from ._snippets import check_predictions

SECOND_ORDER_SNIPPET = """\
x = torch.tensor(1.0, requires_grad=True)
y = x ** 4
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
(g2,) = torch.autograd.grad(g, x)
print(g2)
print(x.grad)"""


@prediction
def second_order(answers: Any) -> None:
    check_predictions("your 3 predictions", answers, SECOND_ORDER_SNIPPET,
                      ["g", "g2", "x.grad"],
                      "All 3 right: create_graph makes the gradient differentiable in turn.")


# What differentiates more than once for the learner: the exercises ask for the passes themselves.
def _ready_made() -> dict[Callable, str]:
    from minigrad.autograd import functional

    return {getattr(functional, name): f"torch.autograd.functional.{name}"
            for name in ("hessian", "hvp", "vhp", "jacobian")}


def _passes(function: Callable, f: Callable, x: Tensor, *args: Any) -> dict:
    """Run the learner's function under a Watch: its result as data and how it differentiated
    (each pass's create_graph, and whether each pass started from the one before's result)."""
    with Watch(_ready_made(), given=(f,)) as watch:
        result = call(function, f, x, *args)
    runs = watch.runs
    chained = all(
        reaches(root, {g.grad_fn for g in (before.result or ()) if getattr(g, "grad_fn", None)})
        for before, after in pairwise(runs) for root in after.roots)
    return {"result": value_data(result), "called": watch.called,
            "grad_filled": x._grad is not None,
            "accumulated": any(run.accumulate for run in runs),
            "recorded": [bool(run.create_graph) for run in runs], "chained": chained,
            "leaf_with_grad": isinstance(result, Tensor) and result.grad_fn is None
            and result.requires_grad}


def _judge_passes(checks: Checks, which: str, got: dict, passes: int) -> None:
    """What both checks ask of the passes: none ready-made, no backward(), `passes` passes of
    autograd.grad, each from the one before's result, every one but the last recorded."""
    if got["called"]:
        checks.fail_now(f"{which}, it calls {got['called'][0]}, which differentiates for "
                        "you: write the torch.autograd.grad passes yourself, each through the "
                        "one before's result.")
    checks.expect(not got["grad_filled"] and not got["accumulated"],
                  f"{which}, backward() ran (or .grad was filled). Hint: "
                  "torch.autograd.grad hands each derivative back and leaves .grad alone.")
    recorded = got["recorded"]
    checks.expect(len(recorded) == passes and got["chained"],
                  f"{which}, it did not differentiate {passes} times with autograd.grad, "
                  f"each pass going back through what the pass before returned (it ran "
                  f"{len(recorded)} passes).")
    checks.expect(recorded[:-1] == [True] * (len(recorded) - 1) and recorded[-1:] != [True],
                  f"{which}, the passes were not recorded as they should be. Hint: a pass "
                  "that another pass differentiates records its graph; does the last one "
                  "need to?")


_NO_GRAPH = {"does not require grad": "the derivative came back with no graph of its own, so "
                                      "there is nothing to differentiate again: which argument "
                                      "of autograd.grad records one? (notebook 15)"}


# Exercise 15: the n-th derivative. A kind is (description, f, its n-th derivative worked out
# by hand at v), for a coefficient k; the cube's 4th derivative is 0 for all x, not asked.
def _kind(kind: str, k: float) -> tuple[str, Callable, Callable]:
    return {
        "cube": (f"{k:.2f} · x ** 3", lambda x: k * x ** 3,
                 lambda v, n: [k * v ** 3, 3 * k * v * v, 6 * k * v, 6 * k][n]),
        "exp": (f"exp({k:.2f} x)", lambda x: (x * k).exp(),
                lambda v, n: k ** n * math.exp(k * v)),
        "sin": (f"sin({k:.2f} x)", lambda x: (x * k).sin(),
                lambda v, n: k ** n * math.sin(k * v + n * math.pi / 2)),
        "inverse": (f"{k:.2f} / x", lambda x: k / x,
                    lambda v, n: (-1) ** n * math.factorial(n) * k / v ** (n + 1)),
    }[kind]


def _nth_cases(rng: np.random.Generator) -> list[list]:
    """Random coefficients and points: no derivative can be written into an answer."""
    return [[kind, float(rng.uniform(0.5, 2.0)), float(rng.uniform(0.6, 1.6)), n]
            for kind, orders in (("cube", (1, 3)), ("exp", (2, 4)), ("sin", (1, 3)),
                                 ("inverse", (2, 4)))
            for n in orders]


def _nth_run(nth: Callable, case: list) -> dict:
    _, f, _ = _kind(case[0], case[1])
    return _passes(nth, f, tensor_of(case[2], requires_grad=True), case[3])


def _nth_judge(checks: Checks, case: list, got: dict) -> None:
    description, _, exact = _kind(case[0], case[1])
    n = case[3]
    which = f"for f(x) = {description} at x = {case[2]:.3g} and n = {n}"
    checks.expect(same_numbers(got["result"], exact(case[2], n)),
                  f"{which}, it is not the n-th derivative. Hint: pass i differentiates the "
                  "result of pass i - 1; how many passes does n ask for?")
    _judge_passes(checks, which, got, n)


nth_derivative = Exercise(
    "nth_derivative(f, x, n)", ("nth_derivative",), cases=_nth_cases, run=_nth_run,
    judge=_nth_judge, seed=15, hints=_NO_GRAPH,
    success="nth_derivative gives the n-th derivative of 4 functions for n from 1 to 4, from n "
            "autograd.grad passes, each through the graph the pass before recorded, the last "
            "recording none, and leaves .grad alone.")



# Exercise 15's gradient penalty: the gradient of L(w) + |dL/dw|^2. A kind is (description,
# L, the gradient of the penalized loss worked out by hand at w), for a coefficient k.
def _penalty_kind(kind: str, k: float) -> tuple[str, Callable, Callable]:
    return {
        "cube": (f"{k:.2f} · (w ** 3).sum()", lambda w: k * (w ** 3).sum(),
                 lambda v: 3 * k * v ** 2 + 36 * k * k * v ** 3),
        "exp": (f"exp({k:.2f} w).sum()", lambda w: (w * k).exp().sum(),
                lambda v: k * np.exp(k * v) + 2 * k ** 3 * np.exp(2 * k * v)),
        "sin": (f"sin({k:.2f} w).sum()", lambda w: (w * k).sin().sum(),
                lambda v: k * np.cos(k * v) - 2 * k ** 3 * np.cos(k * v) * np.sin(k * v)),
    }[kind]


def _penalty_cases(rng: np.random.Generator) -> list[list]:
    return [[kind, float(rng.uniform(0.5, 1.2)), rng.uniform(-1, 1, size=3).tolist()]
            for kind in ("cube", "exp", "sin")]


def _penalty_run(penalized: Callable, case: list) -> dict:
    _, loss, _ = _penalty_kind(case[0], case[1])
    return _passes(penalized, loss, tensor_of(np.array(case[2], dtype=np.float32),
                                           requires_grad=True))


def _penalty_judge(checks: Checks, case: list, got: dict) -> None:
    description, _, exact = _penalty_kind(case[0], case[1])
    which = f"for loss_fn(w) = {description} at w of 3 numbers"
    checks.expect(same_numbers(got["result"], exact(np.array(case[2], dtype=np.float32)
                                                    .astype(np.float64))),
                  f"{which}, it is not the gradient of loss_fn(w) + (g * g).sum(). Hint: "
                  "the penalty depends on w through g: was g recorded, and is the second "
                  "pass taken from the sum of both terms?")
    _judge_passes(checks, which, got, 2)


penalized_gradient = Exercise(
    "penalized_gradient(loss_fn, w)", ("penalized_gradient",), cases=_penalty_cases,
    run=_penalty_run, judge=_penalty_judge, seed=151, hints=_NO_GRAPH,
    success="penalized_gradient gives the gradient of the loss plus its gradient's squared "
            "size for 3 losses, from two autograd.grad passes, the second through the graph "
            "the first recorded.")

# Lesson 15's build: one Newton step, x - f'(x) / f''(x), both derivatives from autograd.grad.
# A kind is (description, f, f' and f'' worked out by hand) for a coefficient k.
def _newton_kind(kind: str, k: float) -> tuple[str, Callable, Callable, Callable]:
    return {
        "exp": (f"exp({k:.2f} x) - 2x", lambda x: (x * k).exp() - 2 * x,
                lambda v: k * math.exp(k * v) - 2, lambda v: k * k * math.exp(k * v)),
        "quartic": (f"{k:.2f} · x ** 4 + x", lambda x: k * x ** 4 + x,
                    lambda v: 4 * k * v ** 3 + 1, lambda v: 12 * k * v * v),
        "x sin": ("x · sin(x)", lambda x: x * x.sin(),
                  lambda v: math.sin(v) + v * math.cos(v),
                  lambda v: 2 * math.cos(v) - v * math.sin(v)),
    }[kind]


def _newton_cases(rng: np.random.Generator) -> list[list]:
    return [[kind, float(rng.uniform(0.5, 1.5)), float(rng.uniform(0.6, 1.4))]
            for kind in ("exp", "quartic", "x sin") for _ in range(2)]


def _newton_run(step: Callable, case: list) -> dict:
    _, f, _, _ = _newton_kind(case[0], case[1])
    return _passes(step, f, tensor_of(case[2], requires_grad=True))


def _newton_judge(checks: Checks, case: list, got: dict) -> None:
    description, _, slope, curvature = _newton_kind(case[0], case[1])
    v = case[2]
    which = f"for f(x) = {description} at x = {v:.3g}"
    checks.expect(same_numbers(got["result"], v - slope(v) / curvature(v)),
                  f"{which}, the step does not land on x - f'(x) / f''(x). Hint: is the "
                  "second pass differentiating the first derivative, with respect to x?")
    checks.expect(got["leaf_with_grad"],
                  f"{which}, the new x is not a leaf that requires grad, so the next step "
                  "cannot differentiate at it: keep the cell's last lines as they are.")
    _judge_passes(checks, which, got, 2)


newton_step = Exercise(
    "newton_step(f, x)", ("newton_step",), cases=_newton_cases, run=_newton_run,
    judge=_newton_judge, seed=150, hints=_NO_GRAPH,
    success="newton_step lands on x - f'(x) / f''(x) for 3 functions at 2 points each, from "
            "two autograd.grad passes, the second through the graph the first recorded.")
