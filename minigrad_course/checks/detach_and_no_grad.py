"""Checks for exercises/ex10_detach_and_no_grad.ipynb: detach() (or no_grad()) to treat a
value as a constant, and clone() for a copy that shares nothing."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, as_array, describe, same_numbers, shown
from ._snippets import check_predictions


def _td_expected(w0: np.ndarray, x0: np.ndarray, reward: float) -> np.ndarray:
    """The gradient of (w·x - target)² with respect to w when the target is a constant:
    2 (w·x - target) x, with numpy."""
    target = reward + 0.9 * (w0 * x0 * 2).sum()
    return 2 * ((w0 * x0).sum() - target) * x0


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# td_loss is still this, the exercise is not answered.
TD_BUGGY = """\
def td_loss(w, x, reward):
    prediction = (w * x).sum()
    target = reward + 0.9 * (w * x * 2).sum()
    return (prediction - target) ** 2"""


def _td_run(loss_of: Callable, case: dict) -> dict:
    w, x = tensor_of(case["w0"].copy(), requires_grad=True), tensor_of(case["x0"].copy())
    with Watch():
        loss = call(loss_of, w, x, case["reward"])
    if not isinstance(loss, Tensor) or not loss.requires_grad:
        return {"loss": value_data(loss)}
    call(loss.backward, doing="loss.backward()")
    return {"loss": value_data(loss), "grad": value_data(w._grad)}


def _td_judge(checks: Checks, case: dict, got: dict) -> None:
    if "grad" not in got:
        checks.fail_now("it should return the loss as a tensor that requires grad.")
    w0, x0, reward = case["w0"], case["x0"], case["reward"]
    expected_value = ((w0 * x0).sum() - reward - 0.9 * (w0 * x0 * 2).sum()) ** 2
    checks.expect(same_numbers(got["loss"], expected_value), "the loss value changed: the "
                  "target keeps its value, it only stops passing gradients.")
    checks.expect(same_numbers(got["grad"], _td_expected(w0, x0, reward)),
                  "w.grad is not the gradient through the prediction alone. Hint: which "
                  "part of the loss should backward() treat as a constant? (notebook 10)")


def _td_cases(rng: np.random.Generator) -> list[dict]:
    cases = [(np.array([0.5, -1.0]), np.array([1.0, 2.0]), 1.0),
             (np.array([2.0, 0.25]), np.array([-1.0, 3.0]), -0.5)]
    for _ in range(2):
        n = int(rng.integers(2, 6))
        cases.append((rng.normal(size=n), rng.normal(size=n), float(rng.normal())))
    return [{"w0": w0, "x0": x0, "reward": reward} for w0, x0, reward in cases]


td_loss = Exercise(
    "td_loss(w, x, reward)", ("loss_of",), cases=_td_cases, run=_td_run, judge=_td_judge,
    seed=15, buggy=(TD_BUGGY, "td_loss"),
    success="td_loss keeps its value and its gradient flows through the prediction only, for "
            "four w, x and reward.")


COPIED = ("a result", "a leaf", "a tensor without history")  # the kinds of t, by case[0]


def _copied(kind: int, values: np.ndarray) -> Tensor:
    if kind == 0:
        return tensor_of(values, requires_grad=True) * 2
    if kind == 1:
        return tensor_of(values, requires_grad=True)
    return tensor_of(values.astype(np.float32))


def _frozen_run(copy_of: Callable, case: list) -> dict:
    t = _copied(case[0], case[1].copy())
    version, before = t._version, t._data.copy()
    with Watch():
        copy = call(copy_of, t)
    if not isinstance(copy, Tensor):
        return {"copy": value_data(copy)}
    found = {"copy": value_data(copy), "grad_fn": copy.grad_fn is not None}
    try:
        copy.add_(1)
        found["t_after"] = value_data(t._data)
        found["t_version_kept"] = t._version == version
    except Exception as error:  # noqa: BLE001 - the learner's copy refused the change
        found["add_failed"] = type(error).__name__
    found["t_before"] = before
    return found


def _frozen_judge(checks: Checks, case: list, got: dict) -> None:
    t = _copied(case[0], case[1].copy())
    which = f"for {COPIED[case[0]]} of shape {tuple(t.shape)}"
    copy = got["copy"]
    if not (isinstance(copy, dict) and "tensor" in copy):
        checks.fail_now(f"it should return a tensor, not {describe(copy)}.")
    mine = as_array(copy)
    if checks.expect(mine is not None and mine.shape == t._data.shape,
                     f"{which}: the copy should have t's shape {tuple(t._data.shape)}, got "
                     f"{describe(copy)}."):
        checks.expect(same_numbers(copy, t._data),
                      f"{which}: the copy should hold t's values, got {shown(copy)}.")
    checks.expect(copy["dtype"] == str(t._data.dtype),
                  f"{which}: the copy's dtype is torch.{copy['dtype']}, t's torch."
                  f"{t._data.dtype}. Hint: a tensor made from a list of numbers gets the "
                  "default dtype; a copy made from t keeps t's.")
    checks.expect(not copy["requires_grad"] and not got["grad_fn"],
                  f"{which}: the copy should have no history and not require grad. Hint: "
                  "what cuts a tensor out of the graph? (notebook 10)")
    checks.expect("add_failed" not in got and same_numbers(got.get("t_after"), t._data) and
                  got.get("t_version_kept"),
                  f"{which}: changing the copy in place changed t (or t's version "
                  "counter). Hint: what does detach() share with t? (notebook 10)")


frozen_copy = Exercise(
    "frozen_copy(t)", ("copy_of",), run=_frozen_run, judge=_frozen_judge, seed=16,
    cases=lambda rng: [[0, np.array([1.0, 2.0, 3.0])], [1, rng.normal(size=(2, 3))],
                       [2, rng.normal(size=4)], [int(rng.integers(0, 3)), rng.normal(size=5)]],
    success="frozen_copy returns the same values, without history, sharing neither memory "
            "nor version counter, for 3 kinds of tensor.")


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


@prediction
def recorded(answers: Any) -> None:
    check_predictions("your 3 predictions", answers, RECORDED_SNIPPET,
                      ["scaled.requires_grad", "w.grad", "b.grad"],
                      "All 3 right: no_grad() makes constants; requires_grad_(False) freezes a "
                      "leaf.")


# Lesson 10's build: a no_grad of the learner's own. Each case: (words, grad mode before the
# block, how the block goes: "plain", "raises" (a ValueError leaves it) or "nested" (a second
# one inside, entered and left before the first is left)).
_BLOCK_CASES = [("with grad mode on", True, "plain"), ("with grad mode off", False, "plain"),
                ("when the block raises ValueError", True, "raises"),
                ("for one block inside another", True, "nested"),
                ("for one block inside another, grad mode off", False, "nested")]


def records_nothing(NoGrad: Callable) -> None:  # noqa: N803 - the learner's class, by its name
    """Lesson 10's build: `with NoGrad():` turns grad mode off for its block, and leaves it as
    it found it, whatever the mode was, even when the block raises (which it lets through).
    The check plays `with` itself: __enter__, the block, __exit__, the block's code outside
    the watch (it is the check's)."""
    from minigrad import _grad_mode as mode

    checks = Checks("NoGrad")
    forbidden = {mode._GradModeContext.__enter__: "minigrad's own no_grad.__enter__",
                 mode._GradModeContext.__exit__: "minigrad's own no_grad.__exit__",
                 mode.set_grad_enabled.__exit__: "minigrad's own set_grad_enabled.__exit__",
                 mode.inference_mode.__enter__: "minigrad's own inference_mode.__enter__",
                 mode.inference_mode.__exit__: "minigrad's own inference_mode.__exit__"}
    watches: list[Watch] = []
    x = tensor_of(np.array([1.5, -2.0], dtype=np.float32), requires_grad=True)

    def learners(step: str, *args: Any) -> Any:
        """Run one of the learner's steps ("NoGrad()", __enter__, __exit__) in a Watch."""
        with Watch(forbidden) as watch:
            try:
                result = args[0]() if step == "NoGrad()" else getattr(args[0], step)(*args[1:])
            except NotImplementedError:
                checks.not_answered()
            except Exception as error:  # noqa: BLE001 - any crash of learner code
                checks.fail_now(f"{which}: {step} raised {type(error).__name__}: {error}")
        watches.append(watch)
        return result

    for which, before, block in _BLOCK_CASES:
        mode._set_enabled(before)
        try:
            outer = learners("NoGrad()", NoGrad)
            learners("__enter__", outer)
            inside = mode.is_grad_enabled(), (x * 2).requires_grad
            swallowed = after_inner = None
            if block == "nested":
                inner = learners("NoGrad()", NoGrad)
                learners("__enter__", inner)
                learners("__exit__", inner, None, None, None)
                after_inner = mode.is_grad_enabled()
            if block == "raises":
                error = ValueError("the block's own error")
                swallowed = learners("__exit__", outer, ValueError, error, None)
            else:
                learners("__exit__", outer, None, None, None)
            after = mode.is_grad_enabled(), (x * 2).requires_grad
        finally:
            mode._set_enabled(True)
        called = [name for watch in watches for name in watch.called]
        if called:
            checks.fail_now(f"{which}: it calls {called[0]}, which is what the lesson asks you "
                            "to write. Set the flag with torch.set_grad_enabled(mode).")
        checks.expect(inside == (False, False),
                      f"{which}: inside the block grad mode was still on (x * 2 "
                      f"{'required' if inside[1] else 'did not require'} grad). Hint: "
                      "__enter__ runs as the block starts: turn grad mode off there.")
        checks.expect(after_inner in (None, False),
                      f"{which}: leaving the inner block turned grad mode back on, inside the "
                      "outer one. Hint: each block puts back the mode it found, kept by that "
                      "block's own object.")
        checks.expect(after == (before, before),
                      f"{which}: after the block grad mode was "
                      f"{'on' if after[0] else 'off'}, not as it was before the block. Hint: "
                      + {"plain": "note torch.is_grad_enabled() in __enter__ and put it back "
                                  "in __exit__.",
                         "raises": "__exit__ runs when the block raises too: put the mode back "
                                   "whatever happened (a contextmanager's yield raises the "
                                   "block's error: try/finally).",
                         "nested": "each block puts back the mode it found, kept by that "
                                   "block's own object."}[block])
        checks.expect(not swallowed,
                      f"{which}: __exit__ returned {swallowed!r}, which tells `with` to swallow "
                      "the block's error. Return None and let it through.")
        if checks.failures:
            break
    checks.verdict("NoGrad turns grad mode off for its block and puts back the mode it found, "
                   "nested, with grad mode off before, and when the block raises.")
