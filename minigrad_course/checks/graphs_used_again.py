"""Checks for exercises/ex09_graphs_used_again.ipynb: retain_graph, autograd.grad and
create_graph."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers
from ._guards import Watch, reaches
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


def second_order(answers: Any) -> None:
    check_predictions("your 3 predictions", answers, SECOND_ORDER_SNIPPET,
                      ["g", "g2", "x.grad"],
                      "All 3 right: create_graph makes the gradient differentiable in turn.")


def _functions() -> list[tuple[str, Callable, Callable, float]]:
    """(description, f, f'' worked out by hand, x) with random coefficients and points:
    no second derivative can be written into an answer."""
    rng = np.random.default_rng(14)
    a, b, c = (float(value) for value in rng.uniform(0.5, 2.0, 3))
    cases = [
        (f"{a:.2f} · x ** 3", lambda x: a * x ** 3, lambda v: 6 * a * v),
        ("sin(x) · x²", lambda x: x.sin() * x ** 2,
         lambda v: -math.sin(v) * v * v + 4 * v * math.cos(v) + 2 * math.sin(v)),
        (f"exp({b:.2f} x)", lambda x: (x * b).exp(), lambda v: b * b * math.exp(b * v)),
        (f"{c:.2f} / x", lambda x: c / x, lambda v: 2 * c / v ** 3),
    ]
    return [(description, f, exact, value) for description, f, exact in cases
            for value in (0.5, float(rng.uniform(0.8, 1.6)))]


def second_derivative(second: Callable) -> None:
    checks = Checks("second_derivative(f, x)")
    for description, f, exact, value in _functions():
        x = Tensor(value, requires_grad=True)
        with Watch(given=(f,)) as watch:
            result = checks.call(second, f, x)
        which = f"for f(x) = {description} at x = {value:.3g}"
        checks.expect(same_numbers(result, exact(value)),
                      f"{which}, it is not f''(x). Hint: can the result of a derivative be "
                      "differentiated again if its own graph was not recorded? (notebook 09)")
        checks.expect(x._grad is None and not any(run.accumulate for run in watch.runs),
                      f"{which}, backward() ran (or x.grad was filled). Hint: the exercise asks "
                      "for torch.autograd.grad for both derivatives.")
        runs = watch.runs
        first_grads = {g.grad_fn for g in (runs[0].result or ()) if getattr(g, "grad_fn", None)} \
            if runs else set()
        checks.expect(len(runs) == 2 and runs[0].create_graph and
                      all(reaches(root, first_grads) for root in runs[1].roots),
                      f"{which}, it did not differentiate twice with autograd.grad: the second "
                      "pass should start from the first one's result (it ran "
                      f"{len(runs)} passes).")
    checks.verdict("second_derivative gives f'' for 4 functions at 2 points each, from two "
                   "autograd.grad passes, the second through the first one's graph, and leaves "
                   ".grad alone.")
