"""Checks for exercises/ex10_detach_and_no_grad.ipynb: detach() (or no_grad()) to treat a
value as a constant, and clone() for a copy that shares nothing."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers
from ._guards import Watch
from ._snippets import check_predictions


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
    rng = np.random.default_rng(15)
    for w0, x0, reward in ((np.array([0.5, -1.0]), np.array([1.0, 2.0]), 1.0),
                           (np.array([2.0, 0.25]), np.array([-1.0, 3.0]), -0.5),
                           (rng.normal(size=4), rng.normal(size=4), float(rng.normal()))):
        w, x = Tensor(w0.copy(), requires_grad=True), Tensor(x0)
        with Watch():
            loss = checks.call(loss_of, w, x, reward)
        if not isinstance(loss, Tensor) or not loss.requires_grad:
            checks.fail_now("it should return the loss as a tensor that requires grad.")
        expected_value = ((w0 * x0).sum() - reward - 0.9 * (w0 * x0 * 2).sum()) ** 2
        checks.expect(same_numbers(loss, expected_value), "the loss value changed: the target "
                      "keeps its value, it only stops passing gradients.")
        checks.call(loss.backward, doing="loss.backward()")
        checks.expect(same_numbers(w.grad, _td_expected(w0, Tensor(x0), reward)),
                      "w.grad is not the gradient through the prediction alone. Hint: which "
                      "part of the loss should backward() treat as a constant? (notebook 10)")
    checks.verdict("td_loss keeps its value and its gradient flows through the prediction "
                   "only, for three w, x and reward.")


def frozen_copy(copy_of: Callable) -> None:
    checks = Checks("frozen_copy(t)")
    rng = np.random.default_rng(16)
    leaf = Tensor(rng.normal(size=(2, 3)), requires_grad=True)
    cases = [("a result of shape (3,)", Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True) * 2),
             ("a leaf of shape (2, 3)", leaf),
             ("a tensor without history", Tensor(rng.normal(size=4).astype(np.float32)))]
    for description, t in cases:
        version = t._version
        with Watch():
            copy = checks.call(copy_of, t)
        which = f"for {description}"
        if not isinstance(copy, Tensor):
            checks.fail_now(f"it should return a tensor, not {type(copy).__name__}.")
        checks.expect(same_numbers(copy, t._data) and copy.dtype == t.dtype,
                      f"{which}: the copy should hold the same values, with the same shape and "
                      "dtype.")
        checks.expect(not copy.requires_grad and copy.grad_fn is None,
                      f"{which}: the copy should have no history and not require grad. Hint: "
                      "what cuts a tensor out of the graph? (notebook 10)")
        t_before = t._data.copy()
        checks.expect(lambda copy=copy, t=t, t_before=t_before, version=version:
                      (copy.add_(1), same_numbers(t._data, t_before))[1] and
                      t._version == version,
                      f"{which}: changing the copy in place changed t (or t's version "
                      "counter). Hint: what does detach() share with t? (notebook 10)")
    checks.verdict("frozen_copy returns the same values, without history, sharing neither "
                   "memory nor version counter, for 3 kinds of tensor.")


RECORDED_SNIPPET = """\
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
with torch.no_grad():
    scaled = w * 2
print(scaled.requires_grad)
b.requires_grad_(False)
loss = (scaled * w + b).sum()
loss.backward()
print(w.grad)
print(b.grad)"""


def recorded(answers: Any) -> None:
    check_predictions("your 3 predictions", answers, RECORDED_SNIPPET,
                      ["scaled.requires_grad", "w.grad", "b.grad"],
                      "All 3 right: no_grad() makes constants; requires_grad_(False) freezes a "
                      "leaf.")
