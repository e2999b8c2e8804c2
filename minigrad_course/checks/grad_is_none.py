"""Checks for exercises/ex02_grad_is_none.ipynb and lesson 02's build: who gets a .grad, and
when; a slope measured by nudging."""
from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import random
from minigrad.tensor import Tensor, tensor_of

from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, as_array, describe, is_number, same_numbers, shown
from ._snippets import check_predictions

BEFORE_AND_AFTER_SNIPPET = """\
w = torch.tensor(2.0, requires_grad=True)
x = torch.tensor(5.0)
b = torch.tensor(1.0, requires_grad=True)
y = w * x + b
print(w.grad)
y.backward()
print(w.grad)
print(x.grad)
print(b.grad)"""


@prediction
def before_and_after(answers: Any) -> None:
    labels = ["w.grad before backward", "w.grad after", "x.grad after", "b.grad after"]
    check_predictions("your 4 predictions", answers, BEFORE_AND_AFTER_SNIPPET, labels,
                      "All 4 right: backward() fills .grad only for leaves that require grad.")


OUTCOME_SNIPPETS = {
    "A": """\
x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
y.backward()
print(x.grad)""",
    "B": """\
x = torch.tensor(3.0)
y = x ** 2
x.requires_grad_()
y.backward()
print(x.grad)""",
    "C": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sum() * 0
y.backward()
print(x.grad)""",
    "D": """\
x = torch.tensor(3, requires_grad=True)
y = x ** 2
y.backward()
print(x.grad)""",
}


@prediction
def outcomes(answers: Any) -> None:
    """Four snippets, one print each: the predictions are checked as one list."""
    labels = [f"snippet {name}" for name in OUTCOME_SNIPPETS]
    check_predictions("your 4 predictions", answers, list(OUTCOME_SNIPPETS.values()), labels,
                      "All 4 right: only floating-point leaves recorded with "
                      "requires_grad get a .grad, and a zero gradient is not None.")


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# init_weights is still this, the exercise is not answered.
INIT_BUGGY = """\
def init_weights(n):
    torch.manual_seed(0)
    return torch.randn(n, requires_grad=True) * 0.01"""


def _init_run(init: Callable, n: int) -> dict:
    with Watch():
        w = call(init, n, doing=f"init_weights({n})")
    if not isinstance(w, Tensor):
        return {"w": value_data(w)}
    found = {"w": value_data(w), "shape": list(w.shape)}
    if w.is_leaf and w.requires_grad and tuple(w.shape) == (n,):
        (w * tensor_of(np.arange(1.0, n + 1))).sum().backward()
        found["grad"] = value_data(w._grad)
    return found


def _init_judge(checks: Checks, n: int, got: dict) -> None:
    w = got["w"]
    if not (isinstance(w, dict) and "tensor" in w):
        checks.fail_now(f"init_weights({n}) should return a tensor, not {describe(w)}.")
    random.manual_seed(0)
    expected = random.randn(n)._data * 0.01
    checks.expect(w["is_leaf"], f"init_weights({n}) returns a tensor with a grad_fn, so it "
                  "is not a leaf and backward() will not fill its .grad. Hint: which "
                  "tensors does backward() fill .grad for? (notebook 02)")
    checks.expect(w["requires_grad"], f"init_weights({n}) returns a tensor that does not "
                  "require grad. Hint: a weight must ask for gradients.")
    checks.expect(got["shape"] == [n], f"init_weights({n}) should have shape ({n},).")
    checks.expect(lambda: got["shape"] == [n] and bool(np.allclose(w["tensor"], expected)),
                  f"the values of init_weights({n}) changed: keep the same seed and the "
                  "same 0.01 scaling.")
    if "grad" in got:
        checks.expect(same_numbers(got["grad"], np.arange(1.0, n + 1)),
                      f"after a backward, init_weights({n}).grad should hold the gradient.")


init_weights = Exercise(  # more n than the n = 3 the notebook shows: no values written out
    "init_weights(n)", ("init",), run=_init_run, judge=_init_judge,
    cases=lambda rng: [3, 5, 1, int(rng.integers(2, 9))], buggy=(INIT_BUGGY, "init_weights"),
    success="init_weights(n) returns a leaf that requires grad, with the seeded values, for "
            "four n: backward() fills its .grad.")


def _got_grad(t: Tensor, output: Tensor) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        output.backward()
        return t.grad is not None


def _cases() -> list[tuple[str, Callable[[], tuple[Tensor, Tensor]]]]:
    """(description, make) where make() returns (tensor to ask about, an output computed from
    it that requires grad)."""
    def leaf_requiring_grad() -> tuple[Tensor, Tensor]:
        t = tensor_of(np.array([1.0, 2.0]), requires_grad=True)
        return t, (t * 3).sum()

    def leaf_asked_later() -> tuple[Tensor, Tensor]:
        t = tensor_of(np.array([1.0, 2.0])).requires_grad_()
        return t, t.exp().sum()

    def leaf_without() -> tuple[Tensor, Tensor]:
        t, w = tensor_of(np.array([1.0, 2.0])), tensor_of(2.0, requires_grad=True)
        return t, (t * w).sum()

    def detached() -> tuple[Tensor, Tensor]:
        w = tensor_of(np.array([1.0, 2.0]), requires_grad=True)
        t = (w * 2).detach()
        return t, (t * w).sum()

    def intermediate() -> tuple[Tensor, Tensor]:
        w = tensor_of(np.array([1.0, 2.0]), requires_grad=True)
        t = w * 2
        return t, t.sum()

    def computed_without() -> tuple[Tensor, Tensor]:
        t, w = tensor_of(np.array([1.0, 2.0])) * 2, tensor_of(2.0, requires_grad=True)
        return t, (t * w).sum()

    return [("a leaf created with requires_grad=True", leaf_requiring_grad),
            ("a leaf given requires_grad_() after it was created", leaf_asked_later),
            ("a leaf created without requires_grad", leaf_without),
            ("a tensor detached from a graph", detached),
            ("an intermediate result that requires grad", intermediate),
            ("a result computed only from tensors that do not require grad",
             computed_without)]


def _who_run(predict: Callable, case: int) -> dict:
    t, _ = _cases()[case][1]()
    with Watch() as watch:
        prediction = call(predict, t)
    return {"prediction": value_data(prediction), "backward_runs": watch.backward_runs}


def _who_judge(checks: Checks, case: int, got: dict) -> None:
    description, make = _cases()[case]
    if got["backward_runs"]:
        checks.fail_now("it ran a backward pass: decide from t's attributes alone. Hint: "
                        "which two attributes of a tensor decide whether backward() "
                        "fills its .grad? (notebook 02)")
    prediction = got["prediction"]
    if type(prediction) is not bool:
        shown_value = f" ({prediction!r})" if type(prediction) in (int, float) else ""
        checks.fail_now(f"it should return a bool, True or False; for {description} it "
                        f"returned {describe(prediction)}{shown_value}. "
                        "Hint: return True or False, not 1 or 0.")
    if prediction != _got_grad(*make()) and not any(description in f for f in checks.failures):
        checks.expect(False, f"for {description}, your prediction is not what backward() "
                      "does. Hint: ask two questions about t: is it a leaf, and does it "
                      "require grad?")


def _who_cases(rng: np.random.Generator) -> list[int]:
    cases = list(range(len(_cases()))) * 2
    rng.shuffle(cases)  # an answer cannot follow the order of the calls
    return cases


will_get_grad = Exercise(
    "will_get_grad(t)", ("predict",), cases=_who_cases, run=_who_run, judge=_who_judge, seed=2,
    success="will_get_grad agrees with backward() on 6 kinds of tensor, asked in shuffled "
            "order, without running backward itself.")


def _slope_cases() -> list[tuple[str, Callable[[float], float], float, float]]:
    """(f in words, f, x, f'(x) worked out by hand): smooth functions at points drawn from a
    fixed seed, so no slope can be written into an answer."""
    rng = np.random.default_rng(22)
    x1, x2, x3, x4 = (float(v) for v in rng.uniform(0.5, 2.0, 4))
    return [("f(x) = x ** 2", lambda x: x ** 2, x1, 2 * x1),
            ("f(x) = x ** 3", lambda x: x ** 3, -x2, 3 * x2 ** 2),
            ("f(x) = sin(x)", lambda x: math.sin(x), x3, math.cos(x3)),
            ("f(x) = 1 / x", lambda x: 1 / x, x4, -1 / x4 ** 2)]


def slope(slope_of: Callable) -> None:
    """Lesson 02's build: `slope(f, x)` measures f's slope at x by nudging x, with no
    autograd. One-sided or two-sided differences both pass; the slope must be within 1%."""
    checks = Checks("slope(f, x)")
    for description, f, x, expected in _slope_cases():
        points: list[float] = []

        def watched(t: Any, f: Callable = f, points: list = points) -> Any:
            points.append(t)
            return f(t)

        which = f"for {description} at x = {x:.3f}"
        with Watch(given=(watched, f)) as watch:
            got = checks.call(slope_of, watched, x, doing=f"slope(f, x) {which}")
        if watch.backward_runs:
            checks.fail_now(f"{which}: it ran a backward pass; measure the slope by nudging x "
                            "and calling f, with plain numbers.")
        if not checks.expect(is_number(got), f"{which}: it should return a number, not "
                             f"{describe(got)}."):
            continue
        if not checks.expect(any(p != x for p in points), f"{which}: it never called f at a "
                             "nudged x. Hint: compare f at x + eps with f at x (or x - eps)."):
            continue
        mine = float(as_array(got).reshape(()))
        checks.expect(abs(mine - expected) <= 0.01 * abs(expected) + 1e-6,
                      f"{which}: {shown(got)} is not the slope there. Hint: divide how far f "
                      "moves by how far x moved; a nudge of about 1e-6 is small enough to be "
                      "accurate and large enough for floats to resolve.")
    checks.verdict("slope(f, x) measures the slope of 4 functions within 1%, by nudging x.")
