"""Checks for exercises/ex08_inplace.ipynb: in-place operations and version counters."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers
from ._snippets import check_predictions

WHICH_RAISE_SNIPPETS = {
    "A": """\
w = torch.tensor([1.0, 2.0], requires_grad=True)
w += 1
print(w)""",
    "B": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.tanh()
y.mul_(2)
y.sum().backward()
print(x.grad)""",
    "C": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x / 2
y.add_(1)
y.sum().backward()
print(x.grad)""",
    "D": """\
x = torch.tensor([1.0, 4.0], requires_grad=True)
h = x * 1
r = h.sqrt()
h.mul_(4)
r.sum().backward()
print(x.grad)""",
}


def which_raise(answers: Any) -> None:
    labels = [f"program {name}" for name in WHICH_RAISE_SNIPPETS]
    hints = ["w is a leaf that requires grad; where would its gradient go if it changed?",
             "tanh' = 1 - tanh²: the backward of tanh is computed from its own output.",
             "dividing by a constant needs only that constant to go backwards.",
             "sqrt' = 1 / (2 sqrt(h)): which tensor does the backward of sqrt need, h or r?"]
    check_predictions("your 4 predictions", answers, list(WHICH_RAISE_SNIPPETS.values()),
                      labels, hints, "All 4 right: an in-place change is an error exactly when "
                      "backward would need the old value.")


VERSIONS_SNIPPET = """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y._version)
y.add_(1)
y[0] = 0.0
print(y._version)"""


def versions(answers: Any) -> None:
    check_predictions("your 2 predictions", answers, VERSIONS_SNIPPET,
                      ["the 1st print", "the 2nd print"],
                      ["a fresh result has not been changed yet.",
                       "every in-place operation bumps the counter, item assignment included."],
                      "Both right: _version counts in-place changes.")


DATA_SNIPPETS = {
    ".data": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
y.data.fill_(0.5)
y.sum().backward()
print(x.grad)""",
    "detach()": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
y.detach().fill_(0.5)
y.sum().backward()
print(x.grad)""",
}


def data_versus_detach(answers: Any) -> None:
    labels = ["x.grad after changing y.data", "x.grad after changing y.detach()"]
    hints = [(".data shares the values but not the version counter: nobody notices, and "
              "sigmoid's backward computes y · (1 - y) from the y it saved."),
             "detach() shares the values and the version counter."]
    check_predictions("your 2 predictions", answers, list(DATA_SNIPPETS.values()), labels,
                      hints, "Both right: .data changes go unnoticed (and give wrong gradients); "
                      "detach() changes are caught.")


def _expected_loss(x0: np.ndarray) -> tuple[float, np.ndarray]:
    x = Tensor(x0.copy(), requires_grad=True)
    y = x.sigmoid()
    loss = ((y / y.sum()) ** 2).sum()
    loss.backward()
    return loss.item(), x.grad._data


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# normalized_loss is still this, the exercise is not answered.
NORMALIZED_BUGGY = """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    y /= y.sum()
    return (y ** 2).sum()"""


def normalized_loss(loss_of: Callable) -> None:
    checks = Checks("normalized_loss(x)")
    checks.require_changed(loss_of, NORMALIZED_BUGGY, "normalized_loss")
    for x0 in (np.array([1.0, -2.0, 0.5]), np.array([0.0, 3.0])):
        x = Tensor(x0.copy(), requires_grad=True)
        loss = checks.call(loss_of, x)
        value, grad = _expected_loss(x0)
        if not isinstance(loss, Tensor) or not loss.requires_grad:
            checks.fail_now("it should return the loss as a tensor that requires grad.")
        checks.expect(same_numbers(loss, value),
                      "the loss value changed: keep the same computation.")
        checks.call(loss.backward, doing="loss.backward()", hints={
            "inplace": "sigmoid's backward needs its output unchanged: divide out of place."})
        checks.expect(same_numbers(x.grad, grad), "x.grad is not the gradient of the loss.")
    checks.verdict("normalized_loss computes the same value and can go backwards.")


def _in_place_cases() -> list[tuple[str, Callable[[Tensor], Any], int]]:
    return [("t.add_(1)", lambda t: t.add_(1), 1),
            ("t + 1", lambda t: t + 1, 0),
            ("t[:1].mul_(2), through a view", lambda t: t[:1].mul_(2), 1),
            ("t.add_(1) then t.mul_(2)", lambda t: t.add_(1).mul_(2), 2),
            ("t.data.add_(1)", lambda t: t.data.add_(1), 0)]


def count_inplace(count: Callable) -> None:
    checks = Checks("count_inplace(fn, t)")
    for description, fn, expected in _in_place_cases():
        t = Tensor(np.zeros(3))
        t.add_(5)  # the count must not depend on what happened before
        result = checks.call(count, fn, t)
        checks.expect(result == expected,
                      f"for fn(t) = {description}, the count is wrong. Hint: compare t._version "
                      "before and after calling fn(t).")
    checks.verdict("count_inplace reads the version counter, which views share.")
