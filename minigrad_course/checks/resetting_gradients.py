"""Checks for exercises/ex04_resetting_gradients.ipynb: zero_(), grad = None, and
optimizer.zero_grad()."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers
from ._guards import Watch
from ._snippets import check_predictions

ZERO_GRAD_SNIPPET = """\
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
(w ** 2).sum().backward()
opt.zero_grad(set_to_none=False)
print(w.grad)
(w * 3).sum().backward()
print(w.grad)
opt.zero_grad()
print(w.grad)"""


def zero_grad(answers: Any) -> None:
    labels = ["the 1st print", "the 2nd print", "the 3rd print"]
    check_predictions("your 3 predictions", answers, ZERO_GRAD_SNIPPET, labels,
                      "All 3 right: zero_grad() sets .grad to None unless told otherwise.")


KEPT_REFERENCE_SNIPPETS = {
    "zero_": """\
x = torch.tensor(1.0, requires_grad=True)
(x * 5).backward()
saved = x.grad
x.grad.zero_()
(x * 2).backward()
print(saved)""",
    "None": """\
x = torch.tensor(1.0, requires_grad=True)
(x * 5).backward()
saved = x.grad
x.grad = None
(x * 2).backward()
print(saved)""",
}


def kept_reference(answers: Any) -> None:
    labels = ["saved, after zero_()", "saved, after x.grad = None"]
    check_predictions("your 2 predictions", answers, list(KEPT_REFERENCE_SNIPPETS.values()),
                      labels, "Both right: zero_() reuses the tensor in place, "
                      "= None starts a fresh one.")


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# fit is still this, the exercise is not answered.
FIT_BUGGY = """\
def fit(steps=100, lr=0.1):
    xs = torch.linspace(-1, 1, 20)
    ys = 3 * xs + 1
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    losses = []
    for step in range(steps):
        loss = ((w * xs + b - ys) ** 2).mean()
        loss.backward()
        with torch.no_grad():  # an update, not part of the model: nothing to record
            w -= lr * w.grad
            b -= lr * b.grad
        losses.append(loss.item())
    return w, b, losses"""


def fit(fit_line: Callable) -> None:
    import minigrad as torch

    def reference(steps: int, lr: float) -> list[float]:
        """The usual loop, written here rather than as a function of this module (the
        learner's namespace holds the module as `check`)."""
        xs = torch.linspace(-1, 1, 20)
        ys = 3 * xs + 1
        w = torch.tensor(0.0, requires_grad=True)
        b = torch.tensor(0.0, requires_grad=True)
        losses = []
        for _ in range(steps):
            loss = ((w * xs + b - ys) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                w -= lr * w.grad
                b -= lr * b.grad
            w.grad = b.grad = None
            losses.append(loss.item())
        return losses

    checks = Checks("fit(steps, lr)")
    checks.require_changed(fit_line, FIT_BUGGY, "fit")
    for steps, lr in ((100, 0.1), (40, 0.3)):
        call = f"fit(steps={steps}, lr={lr})"
        with Watch() as watch:
            result = checks.call(fit_line, steps=steps, lr=lr, doing=call)
        if not (isinstance(result, tuple) and len(result) == 3):
            checks.fail_now(f"{call} should still return (w, b, losses).")
        w, b, losses = result
        if not checks.expect(isinstance(losses, list) and len(losses) == steps,
                             f"{call}: losses should hold one number per step ({steps})."):
            continue
        checks.expect(watch.backward_runs == steps,
                      f"{call}: backward() ran {watch.backward_runs} times, once per step is "
                      "asked: the loop should still learn by gradient descent.")
        checks.expect(lambda: losses[-1] < 1e-3 and abs(w.item() - 3) < 0.05 and
                      abs(b.item() - 1) < 0.05,
                      f"{call}: w and b did not reach the line y = 3x + 1. Hint: which .grad "
                      "does each update use, this step's alone or the sum of all steps so far? "
                      "(notebook 04)")
        checks.expect(lambda: same_numbers(losses, reference(steps, lr)),
                      f"{call}: the losses differ from those of gradient descent with one "
                      "reset per step. Hint: what should .grad hold when a step's backward() "
                      "starts?")
    checks.verdict("fit follows gradient descent with a reset every step, for two choices of "
                   "steps and lr.")


def _params(seed: int) -> tuple[list[Tensor], list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    w = Tensor(rng.normal(size=3), requires_grad=True)
    b = Tensor(float(rng.normal()), requires_grad=True)
    frozen = Tensor(rng.normal(size=2), requires_grad=True)  # no gradient reaches it
    ((w * w).sum() + 3 * b).backward()
    return [w, b, frozen], [2 * w._data, np.array(3.0), None]


def sgd_step(step: Callable, lr: float = 0.1) -> None:
    checks = Checks(f"sgd_step(params, lr={lr})")
    for seed, rate in ((5, lr), (6, lr * 2.5)):  # two rates: none written into the answer
        params, grads = _params(seed)
        objects, before = list(params), [p._data.copy() for p in params]
        versions = [p._version for p in params]
        with Watch():
            checks.call(step, params, rate, doing=f"sgd_step(params, {rate})", hints={
                "leaf Variable": "a leaf that requires grad cannot be changed in place while "
                                 "autograd records: update it inside `with torch.no_grad():`."})
        which = f"with lr={rate}"
        checks.expect(all(p is q for p, q in zip(params, objects)),
                      f"{which}: the list should hold the very same tensor objects after the "
                      "step (an optimizer keeps references to them). Hint: update each tensor "
                      "in place.")
        moved = [same_numbers(p, old - rate * g) for p, old, g in zip(objects[:2], before, grads)]
        checks.expect(all(moved), f"{which}: some parameter did not move by -lr × its "
                      "gradient. Hint: subtract lr * p.grad from every parameter that has a "
                      "gradient.")
        checks.expect(all(p._version > version for p, version in zip(objects[:2], versions)),
                      f"{which}: a parameter changed behind autograd's back: its version "
                      "counter did not move, which is what writing through p.data does (lesson "
                      "08 shows the wrong gradients that hides). Hint: what does autograd "
                      "notice of a change made through .data?")
        checks.expect(same_numbers(objects[2], before[2]), f"{which}: a parameter whose .grad "
                      "is None should be left as it is.")
        checks.expect(all(p.is_leaf and p.requires_grad and p.grad_fn is None
                          for p in objects),
                      f"{which}: the parameters should stay leaves that require grad, so the "
                      "next backward fills their .grad. Hint: was the update recorded in a "
                      "graph? (notebook 04)")
        checks.expect(all(p._grad is None for p in objects),
                      f"{which}: after the step every .grad should be None, as zero_grad() "
                      "leaves it.")
    checks.verdict(f"sgd_step (lr={lr} and {lr * 2.5}) moves parameters by -lr × grad in "
                   "place, leaves the others, keeps them leaves and sets .grad to None.")
