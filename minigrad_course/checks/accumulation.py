"""Checks for exercises/ex03_accumulation.ipynb: backward() adds to .grad."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers, shown
from ._guards import Watch, roughly
from ._snippets import check_predictions

BOTH_ORDERS_SNIPPETS = {
    "y first": """\
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = x ** 3
y.backward()
print(x.grad)
z.backward()
print(x.grad)""",
    "z first": """\
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = x ** 3
z.backward()
print(x.grad)
y.backward()
print(x.grad)""",
}


def both_orders(answers: Any) -> None:
    labels = ["the 1st print (y first)", "the 2nd print (y first)",
              "the 1st print (z first)", "the 2nd print (z first)"]
    check_predictions("your 4 predictions", answers, list(BOTH_ORDERS_SNIPPETS.values()),
                      labels, "All 4 right: .grad is the sum of every backward so far, "
                      "in any order.")


LOOP_SNIPPET = """\
x = torch.ones(2, requires_grad=True)
for step in range(4):
    loss = (x * 3).sum()
    loss.backward()
print(x.grad)"""


def loop(answers: Any) -> None:
    check_predictions("your prediction", answers, LOOP_SNIPPET, ["x.grad after the loop"],
                      "Right: four backward passes, four gradients added up.",
                      hint="each pass adds d(loss)/dx, and nothing resets .grad in between.")


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# gradients_of_two_losses is still this, the exercise is not answered.
TWO_LOSSES_BUGGY = """\
def gradients_of_two_losses(w):
    loss_a = (w * 2).sum()
    loss_a.backward()
    grad_a = w.grad
    loss_b = (w ** 2).sum()
    loss_b.backward()
    grad_b = w.grad
    return grad_a, grad_b"""


def _passes_of(w: Tensor) -> tuple[list[np.ndarray], Callable]:
    """A list that fills with the gradient reaching the leaf `w` in each backward pass (a
    hook sees every pass, backward() or autograd.grad), and that hook."""
    passes: list[np.ndarray] = []

    def remember(grad: Tensor) -> None:
        passes.append(np.array(grad._data))

    w.register_hook(remember)
    return passes, remember


def two_losses(gradients_of_two_losses: Callable) -> None:
    checks = Checks("gradients_of_two_losses(w)")
    checks.require_changed(gradients_of_two_losses, TWO_LOSSES_BUGGY, "gradients_of_two_losses")
    rng = np.random.default_rng(3)
    for w0 in (np.array([1.0, -1.0, 3.0]), rng.normal(size=4)):
        w = Tensor(w0.copy(), requires_grad=True)
        passes, hook = _passes_of(w)
        with Watch(given=(hook,)):
            result = checks.call(gradients_of_two_losses, w)
        if not (isinstance(result, tuple) and len(result) == 2):
            checks.fail_now("it should return a pair (grad_a, grad_b).")
        grad_a, grad_b = result
        which = f"for w = {shown(w0)}"
        checks.expect(same_numbers(grad_a, np.full_like(w0, 2.0)),
                      f"{which}: grad_a is not the gradient of loss_a alone (got {shown(grad_a)}). "
                      "Hint: is grad_a a copy, or the very tensor that the next backward() "
                      "adds to?")
        checks.expect(same_numbers(grad_b, 2 * w0),
                      f"{which}: grad_b is not the gradient of loss_b alone, 2·w (got "
                      f"{shown(grad_b)}). Hint: what does .grad still hold when loss_b.backward() "
                      "runs?")
        checks.expect(any(same_numbers(grad, np.full_like(w0, 2.0)) for grad in passes) and
                      any(same_numbers(grad, 2 * w0) for grad in passes),
                      f"{which}: no backward pass brought these gradients to w: the exercise "
                      "asks for each loss's gradient as backward() computes it, not written "
                      "out by hand.")
    checks.verdict("Both gradients are right for two w, each from its own backward pass.")


def _batch(n: int) -> tuple[Tensor, Tensor]:
    rng = np.random.default_rng(n)
    inputs = rng.normal(size=(n, 3))
    return Tensor(inputs), Tensor(inputs @ np.array([1.0, -2.0, 0.5]) + rng.normal(size=n))


def _gradient(inputs: np.ndarray, targets: np.ndarray, w0: np.ndarray, n: int) -> np.ndarray:
    """The gradient of sum((inputs @ w - targets)²) / n at w0: a micro-batch's share of the
    whole batch's mean squared error (the whole batch itself when it is all the rows)."""
    w = Tensor(w0.copy(), requires_grad=True)
    (((Tensor(inputs) @ w - Tensor(targets)) ** 2).sum() / n).backward()
    return w.grad._data


def micro_batches(accumulate_gradient: Callable, cases: tuple = ((8, 2), (10, 4)),
                  success: str = "w.grad is the full-batch gradient, from one backward pass per "
                                 "micro-batch, each with its micro-batch's share.") -> None:
    """`cases` lists (batch size, micro-batch size). The visible check has an uneven split
    already, since the prompt names it; the hidden test tries other sizes. Each backward
    pass must bring its micro-batch's share: one pass over the whole batch, padded with
    passes that bring nothing, is not micro-batching."""
    checks = Checks("accumulate_gradient(w, inputs, targets, micro_batch_size)")
    rng = np.random.default_rng(4)
    for n, size in cases:
        inputs, targets = _batch(n)
        w0 = rng.normal(size=3)
        w = Tensor(w0.copy(), requires_grad=True)
        passes, hook = _passes_of(w)
        with Watch(given=(hook,)):
            checks.call(accumulate_gradient, w, inputs, targets, size)
        which = f"with {n} samples in micro-batches of {size}"
        if not checks.expect(w.grad is not None, f"{which}: w.grad is still None. Hint: call "
                             "backward() on each micro-batch's loss."):
            continue
        expected_passes = -(-n // size)
        checks.expect(len(passes) == expected_passes,
                      f"{which}: backward() should run once per micro-batch "
                      f"({expected_passes} times); it ran {len(passes)} times.")
        shares = [_gradient(inputs._data[start:start + size], targets._data[start:start + size],
                            w0, n) for start in range(0, n, size)]
        unmatched = list(passes)
        for share in shares:
            match = next((i for i, grad in enumerate(unmatched) if same_numbers(grad, share)),
                         None)
            if match is not None:
                unmatched.pop(match)
        checks.expect(len(passes) == expected_passes and not unmatched,
                      f"{which}: some backward pass did not bring one micro-batch's share of "
                      "the gradient (its rows' squared errors, divided by the whole batch's "
                      "size). Hint: each backward() should start from the loss of one "
                      "micro-batch, computed from its rows only.")
        expected = _gradient(inputs._data, targets._data, w0, n)
        checks.expect(same_numbers(w.grad, expected),
                      f"{which}: w.grad is not the gradient of the mean squared error over the "
                      f"whole batch (expected {roughly(expected)}, got {shown(w.grad)}). Hint: "
                      "the mean over the whole batch divides every squared error by the size of "
                      "the whole batch; do your micro-batch losses do the same, the last, "
                      "smaller one included?")
    checks.verdict(success)


def micro_batches_uneven(accumulate_gradient: Callable) -> None:
    micro_batches(accumulate_gradient, cases=((7, 3), (5, 5), (3, 1)),
                  success="Uneven micro-batches add up to the full-batch gradient too, one "
                          "share per backward pass.")
