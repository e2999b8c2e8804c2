"""Checks for exercises/ex09_graphs_used_again.ipynb: retain_graph, autograd.grad and
create_graph."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, same_numbers
from ._graphs import reaches
from ._snippets import check_predictions

TWICE_SNIPPETS = {
    "retain_graph": """\
x = torch.tensor(1.5, requires_grad=True)
y = 4 * x ** 2
y.backward(retain_graph=True)
y.backward()
print(x.grad)""",
    "twice": """\
x = torch.tensor(1.5, requires_grad=True)
y = 4 * x ** 2
y.backward()
y.backward()
print(x.grad)""",
    "autograd.grad": """\
x = torch.tensor(1.5, requires_grad=True)
y = 4 * x ** 2
(g,) = torch.autograd.grad(y, x)
print(g)
print(x.grad)""",
}


@prediction
def twice(answers: Any) -> None:
    labels = ["program 1 (retain_graph)", "program 2 (backward twice)", "program 3, g",
              "program 3, x.grad"]
    check_predictions("your 4 predictions", answers, list(TWICE_SNIPPETS.values()), labels,
                      "All 4 right: retain_graph keeps the graph; autograd.grad leaves "
                      ".grad alone.")


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


def _function(kind: str, k: float) -> tuple[str, Callable, Callable]:
    """(description, f, f'' worked out by hand) for a coefficient k."""
    return {
        "cube": (f"{k:.2f} · x ** 3", lambda x: k * x ** 3, lambda v: 6 * k * v),
        "sin": ("sin(x) · x²", lambda x: x.sin() * x ** 2,
                lambda v: -math.sin(v) * v * v + 4 * v * math.cos(v) + 2 * math.sin(v)),
        "exp": (f"exp({k:.2f} x)", lambda x: (x * k).exp(), lambda v: k * k * math.exp(k * v)),
        "inverse": (f"{k:.2f} / x", lambda x: k / x, lambda v: 2 * k / v ** 3),
    }[kind]


def _second_cases(rng: np.random.Generator) -> list[list]:
    """Random coefficients and points: no second derivative can be written into an answer."""
    return [[kind, float(rng.uniform(0.5, 2.0)), value] for kind in ("cube", "sin", "exp",
                                                                      "inverse")
            for value in (0.5, float(rng.uniform(0.8, 1.6)))]


# What differentiates twice for the learner: the exercise asks for the two passes themselves.
def _ready_made() -> dict[Callable, str]:
    from minigrad.autograd import functional

    return {getattr(functional, name): f"torch.autograd.functional.{name}"
            for name in ("hessian", "hvp", "vhp", "jacobian")}


def _second_run(second: Callable, case: list) -> dict:
    _, f, _ = _function(case[0], case[1])
    x = Tensor(case[2], requires_grad=True)
    with Watch(_ready_made(), given=(f,)) as watch:
        result = call(second, f, x)
    runs = watch.runs
    first_grads = {g.grad_fn for g in (runs[0].result or ()) if getattr(g, "grad_fn", None)} \
        if runs else set()
    return {"result": value_data(result), "called": watch.called,
            "grad_filled": x._grad is not None,
            "accumulated": any(run.accumulate for run in runs), "runs": len(runs),
            "twice": len(runs) == 2 and runs[0].create_graph and
            all(reaches(root, first_grads) for root in runs[1].roots)}


def _second_judge(checks: Checks, case: list, got: dict) -> None:
    description, _, exact = _function(case[0], case[1])
    which = f"for f(x) = {description} at x = {case[2]:.3g}"
    if got["called"]:
        checks.fail_now(f"{which}, it calls {got['called'][0]}, which differentiates for "
                        "you: write both torch.autograd.grad passes yourself, the second "
                        "through the first one's result.")
    checks.expect(same_numbers(got["result"], exact(case[2])),
                  f"{which}, it is not f''(x). Hint: can the result of a derivative be "
                  "differentiated again if its own graph was not recorded? (notebook 09)")
    checks.expect(not got["grad_filled"] and not got["accumulated"],
                  f"{which}, backward() ran (or x.grad was filled). Hint: the exercise asks "
                  "for torch.autograd.grad for both derivatives.")
    checks.expect(got["twice"],
                  f"{which}, it did not differentiate twice with autograd.grad: the second "
                  "pass should start from the first one's result (it ran "
                  f"{got['runs']} passes).")


second_derivative = Exercise(
    "second_derivative(f, x)", ("second",), cases=_second_cases, run=_second_run,
    judge=_second_judge, seed=14,
    hints={"does not require grad": "the first derivative came back with no graph of its own, "
                                    "so there is nothing to differentiate again: which "
                                    "argument of autograd.grad records one? (notebook 09)"},
    success="second_derivative gives f'' for 4 functions at 2 points each, from two "
            "autograd.grad passes, the second through the first one's graph, and leaves "
            ".grad alone.")


# Lesson 09's build: several losses over one graph, a gradient for each, one pass per loss.
# A case is (words, what makes the shared tensor from x, what makes the losses from it, each
# loss's gradient with respect to x worked out by hand in numpy).
def _losses_cases(rng: np.random.Generator) -> list[tuple]:
    k = float(rng.uniform(0.5, 1.5))
    return [
        ("for h = x.sin() and the losses h.sum(), (h * h).sum(), (h * k).exp().sum()",
         lambda x: x.sin(), lambda h: [h.sum(), (h * h).sum(), (h * k).exp().sum()],
         [np.cos, lambda v: 2 * np.sin(v) * np.cos(v),
          lambda v: k * np.cos(v) * np.exp(k * np.sin(v))]),
        ("for one loss, (x * x).sum()", lambda x: x * x, lambda p: [p.sum()],
         [lambda v: 2 * v]),
        ("for s = (x * x).sum() and the losses s * k, then s", lambda x: x * x,
         lambda p: [p.sum() * k, p.sum()], [lambda v: 2 * k * v, lambda v: 2 * v]),
    ]


def one_pass_each(each_gradient: Callable) -> None:
    """Lesson 09's build: `each_gradient(losses, x)` returns the gradient of each loss with
    respect to x, from one autograd.grad pass per loss through their shared graph; every pass
    but the last keeps the graph, the last frees it, and x.grad stays None."""
    checks = Checks("each_gradient")
    rng = np.random.default_rng(90)
    hints = {"backward through the graph a second time": "the first pass freed what the graph "
             "saved, and the next loss's pass needs it: which argument keeps it? (above)"}
    for which, make_shared, make_losses, exact in _losses_cases(rng):
        values = rng.uniform(-1.5, 1.5, size=3).astype(np.float32)
        x = Tensor(values, requires_grad=True)
        shared = make_shared(x)  # its node saves x: a pass that frees the graph drops it
        losses = make_losses(shared)
        with Watch() as watch:
            got = checks.call(each_gradient, losses, x, hints=hints,
                              doing="each_gradient(losses, x)")
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        checks.expect(len(got) == len(losses) and all(
            same_numbers(value_data(g), f(values.astype(np.float64)))
            for g, f in zip(got, exact)),
            f"{which}: the list is not each loss's own gradient with respect to x, in the "
            "losses' order. Hint: one torch.autograd.grad(loss, x) per loss.")
        checks.expect(x._grad is None and not any(run.accumulate for run in watch.runs),
                      f"{which}: backward() ran (or x.grad was filled). Hint: "
                      "torch.autograd.grad hands the gradients back and leaves .grad alone.")
        roots = [run.roots for run in watch.runs]
        checks.expect(len(roots) == len(losses) and all(
            len(r) == 1 and any(r[0] is loss for loss in losses) for r in roots),
            f"{which}: it did not run one pass per loss, from that loss alone (it ran "
            f"{len(roots)} passes for {len(losses)} losses).")
        try:
            shared.grad_fn._saved_self
            freed = False
        except RuntimeError:  # freed, as backward leaves a graph it need not keep
            freed = True
        checks.expect(freed and not any(run.create_graph for run in watch.runs),
                      f"{which}: the graph is still kept after the last pass. Hint: only the "
                      "passes that another pass follows need to keep it.")
        if checks.failures:
            break
    checks.verdict("each_gradient gives every loss its own gradient, one autograd.grad pass "
                   "each through the shared graph, which the last pass frees, for 3 sets of "
                   "losses.")
