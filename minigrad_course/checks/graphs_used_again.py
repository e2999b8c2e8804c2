"""Checks for exercises/ex09_graphs_used_again.ipynb: retain_graph, autograd.grad and
create_graph."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers
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
    hints = ["the graph survives the first pass, and .grad accumulates.",
             "backward frees what the graph saved (here x, for the derivative 8x).",
             "autograd.grad returns dy/dx.",
             "autograd.grad returns its result instead of storing it anywhere."]
    check_predictions("your 4 predictions", answers, list(TWICE_SNIPPETS.values()), labels,
                      hints, "All 4 right: retain_graph keeps the graph; autograd.grad leaves "
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
                      ["g = dy/dx = 4x³.", "g2 = dg/dx = 12x².", "only backward() writes .grad."],
                      "All 3 right: create_graph makes the gradient differentiable in turn.")


FUNCTIONS = [
    ("x ** 3", lambda x: x ** 3, lambda v: 6 * v),
    ("sin(x) · x²", lambda x: x.sin() * x ** 2,
     lambda v: -math.sin(v) * v * v + 4 * v * math.cos(v) + 2 * math.sin(v)),
    ("exp(2x)", lambda x: (x * 2).exp(), lambda v: 4 * math.exp(2 * v)),
]


def second_derivative(second: Callable) -> None:
    checks = Checks("second_derivative(f, x)")
    for description, f, exact in FUNCTIONS:
        for value in (0.5, 1.5):
            x = Tensor(value, requires_grad=True)
            result = checks.call(second, f, x)
            checks.expect(same_numbers(result, exact(value)),
                          f"for f(x) = {description} at x = {value}, it is not f''(x). Hint: "
                          "the first autograd.grad needs create_graph=True, so that its result "
                          "can be differentiated again.")
            checks.expect(x._grad is None, f"for f(x) = {description} at x = {value}, x.grad "
                          "was filled. Hint: "
                          "use torch.autograd.grad for both derivatives, not backward().")
    checks.verdict("second_derivative differentiates the derivative, leaving .grad alone.")
