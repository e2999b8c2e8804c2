"""Checks for exercises/ex08_beyond_grad.ipynb: retain_graph, autograd.grad, create_graph,
detach() and no_grad()."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..tensor import Tensor
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


def _td_expected(w0: np.ndarray, x: Tensor, reward: float) -> np.ndarray:
    w = Tensor(w0.copy(), requires_grad=True)
    target = reward + 0.9 * (w * x * 2).sum().detach()
    (((w * x).sum() - target) ** 2).backward()
    return w.grad._data


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# td_loss is still this, the exercise is not answered.
TD_BUGGY = """\
def td_loss(w, x, reward):
    prediction = (w * x).sum()
    target = reward + 0.9 * (w * x * 2).sum()
    return (prediction - target) ** 2"""


def td_loss(loss_of: Callable) -> None:
    checks = Checks("td_loss(w, x, reward)")
    checks.require_changed(loss_of, TD_BUGGY, "td_loss")
    for w0, x0, reward in ((np.array([0.5, -1.0]), np.array([1.0, 2.0]), 1.0),
                           (np.array([2.0, 0.25]), np.array([-1.0, 3.0]), -0.5)):
        w, x = Tensor(w0.copy(), requires_grad=True), Tensor(x0)
        loss = checks.call(loss_of, w, x, reward)
        if not isinstance(loss, Tensor) or not loss.requires_grad:
            checks.fail_now("it should return the loss as a tensor that requires grad.")
        expected_value = ((w0 * x0).sum() - reward - 0.9 * (w0 * x0 * 2).sum()) ** 2
        checks.expect(same_numbers(loss, expected_value), "the loss value changed: the target "
                      "keeps its value, it only stops passing gradients.")
        checks.call(loss.backward, doing="loss.backward()")
        checks.expect(same_numbers(w.grad, _td_expected(w0, Tensor(x0), reward)),
                      "w.grad still includes a gradient through the target. Hint: cut the "
                      "target from the graph (detach() or torch.no_grad()).")
    checks.verdict("td_loss treats the target as a constant: gradients flow through the "
                   "prediction only.")


def frozen_copy(copy_of: Callable) -> None:
    checks = Checks("frozen_copy(t)")
    t = Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True) * 2
    version = t._version
    copy = checks.call(copy_of, t)
    if not isinstance(copy, Tensor):
        checks.fail_now(f"it should return a tensor, not {type(copy).__name__}.")
    checks.expect(same_numbers(copy, t._data), "the copy should hold the same values.")
    checks.expect(not copy.requires_grad and copy.grad_fn is None,
                  "the copy should have no history and not require grad. Hint: detach().")
    t_before = t._data.copy()
    checks.expect(lambda: (copy.add_(1), same_numbers(t._data, t_before))[1] and
                  t._version == version,
                  "changing the copy in place changed t (or t's version counter). Hint: "
                  "detach() shares memory and version counter; clone() makes new ones.")
    checks.verdict("frozen_copy is independent: no history, no shared memory.")
