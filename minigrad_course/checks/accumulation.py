"""Checks for exercises/ex03_accumulation.ipynb and lesson 03's build: backward() adds to .grad."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, roughly, same_numbers, shown, times
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


@prediction
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


@prediction
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


def _two_losses_run(gradients_of_two_losses: Callable, w0: np.ndarray) -> dict:
    w = tensor_of(w0.copy(), requires_grad=True)
    passes, hook = _passes_of(w)
    with Watch(given=(hook,)):
        result = call(gradients_of_two_losses, w)
    return {"result": value_data(result), "passes": passes}


def _two_losses_judge(checks: Checks, w0: np.ndarray, got: dict) -> None:
    result = got["result"]
    if not (isinstance(result, dict) and len(result.get("tuple", ())) == 2):
        checks.fail_now("it should return a pair (grad_a, grad_b).")
    grad_a, grad_b = result["tuple"]
    which = f"for w = {shown(w0)}"
    checks.expect(same_numbers(grad_a, np.full_like(w0, 2.0)),
                  f"{which}: grad_a is not the gradient of loss_a alone (got {shown(grad_a)}). "
                  "Hint: is grad_a a copy, or the very tensor that the next backward() "
                  "adds to?")
    checks.expect(same_numbers(grad_b, 2 * w0),
                  f"{which}: grad_b is not the gradient of loss_b alone, 2·w (got "
                  f"{shown(grad_b)}). Hint: what does .grad still hold when loss_b.backward() "
                  "runs?")
    passes = got["passes"]
    checks.expect(any(same_numbers(grad, np.full_like(w0, 2.0)) for grad in passes) and
                  any(same_numbers(grad, 2 * w0) for grad in passes),
                  f"{which}: no backward pass brought these gradients to w: the exercise "
                  "asks for each loss's gradient as backward() computes it, not written "
                  "out by hand.")


def _two_losses_cases(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """w = [1, -1, 3], then two w of one drawn length: an answer that remembers its results by
    the length of w (or by how often it was called) gives the first one's for the second."""
    return [np.array([1.0, -1.0, 3.0]), rng.normal(size=n), rng.normal(size=n)]


two_losses = Exercise(
    "gradients_of_two_losses(w)", ("gradients_of_two_losses",),
    cases=lambda rng: _two_losses_cases(rng, int(rng.integers(2, 6))),
    run=_two_losses_run, judge=_two_losses_judge, seed=3,
    buggy=(TWO_LOSSES_BUGGY, "gradients_of_two_losses"),
    success="Both gradients are right for three w, each from its own backward pass.")


def _gradient(inputs: np.ndarray, targets: np.ndarray, w0: np.ndarray, n: int) -> np.ndarray:
    """The gradient of sum((inputs @ w - targets)²) / n at w0, 2 inputsᵀ (inputs @ w0 - targets)
    / n with numpy: a micro-batch's share of the whole batch's mean squared error (the whole
    batch itself when it is all the rows)."""
    return 2 * inputs.T @ (inputs @ w0 - targets) / n


def _micro_cases(rng: np.random.Generator, sizes: tuple) -> list[dict]:
    """One case per (batch size, micro-batch size): random rows, targets and a starting w."""
    cases = []
    for n, size in sizes:
        inputs = rng.normal(size=(n, 3))
        targets = inputs @ np.array([1.0, -2.0, 0.5]) + rng.normal(size=n)
        cases.append({"n": n, "size": size, "inputs": inputs, "targets": targets,
                      "w0": rng.normal(size=3)})
    return cases


def _micro_run(accumulate_gradient: Callable, case: dict) -> dict:
    w = tensor_of(case["w0"].copy(), requires_grad=True)
    passes, hook = _passes_of(w)
    with Watch(given=(hook,)):
        call(accumulate_gradient, w, tensor_of(case["inputs"].copy()),
             tensor_of(case["targets"].copy()), case["size"])
    return {"grad": None if w._grad is None else value_data(w._grad), "passes": passes}


def _micro_judge(checks: Checks, case: dict, got: dict) -> None:
    n, size, inputs, targets = case["n"], case["size"], case["inputs"], case["targets"]
    which = f"with {n} samples in micro-batches of {size}"
    if not checks.expect(got["grad"] is not None, f"{which}: w.grad is still None. Hint: call "
                         "backward() on each micro-batch's loss."):
        return
    passes = got["passes"]
    expected_passes = -(-n // size)
    checks.expect(len(passes) == expected_passes,
                  f"{which}: backward() should run once per micro-batch "
                  f"({times(expected_passes)}); it ran {times(len(passes))}.")
    unmatched = list(passes)
    for start in range(0, n, size):
        share = _gradient(inputs[start:start + size], targets[start:start + size], case["w0"], n)
        match = next((i for i, grad in enumerate(unmatched) if same_numbers(grad, share)), None)
        if match is not None:
            unmatched.pop(match)
    checks.expect(len(passes) == expected_passes and not unmatched,
                  f"{which}: some backward pass did not bring one micro-batch's share of "
                  "the gradient (its rows' squared errors, divided by the whole batch's "
                  "size). Hint: each backward() should start from the loss of one "
                  "micro-batch, computed from its rows only.")
    expected = _gradient(inputs, targets, case["w0"], n)
    checks.expect(same_numbers(got["grad"], expected),
                  f"{which}: w.grad is not the gradient of the mean squared error over the "
                  f"whole batch (expected {roughly(expected)}, got {shown(got['grad'])}). Hint: "
                  "the mean over the whole batch divides every squared error by the size of "
                  "the whole batch; do your micro-batch losses do the same, the last, "
                  "smaller one included?")


def _drawn_sizes(rng: np.random.Generator) -> tuple[int, int]:
    n = int(rng.integers(5, 13))
    return n, int(rng.integers(2, n))


# The visible check has an uneven split already, since the prompt names it; the hidden test
# tries other sizes. Each backward pass must bring its micro-batch's share: one pass over the
# whole batch, padded with passes that bring nothing, is not micro-batching.
micro_batches = Exercise(
    "accumulate_gradient(w, inputs, targets, micro_batch_size)", ("accumulate_gradient",),
    cases=lambda rng: _micro_cases(rng, ((8, 2), (10, 4), _drawn_sizes(rng))),
    run=_micro_run, judge=_micro_judge, seed=4,
    success="w.grad is the full-batch gradient, from one backward pass per micro-batch, each "
            "with its micro-batch's share.")
micro_batches_uneven = Exercise(
    micro_batches.subject, micro_batches.names,
    cases=lambda rng: _micro_cases(rng, ((7, 3), (5, 5), (3, 1), _drawn_sizes(rng))),
    run=_micro_run, judge=_micro_judge, seed=5,
    success="Uneven micro-batches add up to the full-batch gradient too, one share per "
            "backward pass.")


def _accumulate_cases() -> list[tuple[str, list[np.ndarray]]]:
    """(a leaf's shape in words, the gradients handed in one after the other) for lesson 03's
    build: numbers from a fixed seed, so no answer can know them from the lesson's cells."""
    rng = np.random.default_rng(30)
    return [(words, [rng.normal(size=shape).astype(np.float32) for _ in range(calls)])
            for words, shape, calls in (("of shape (3,)", 3, 3), ("holding one number", (), 2),
                                        ("of shape (2, 2)", (2, 2), 4))]


def accumulate(accumulate_of: Callable) -> None:
    """Lesson 03's build: `accumulate(t, grad)` does what a backward pass does at a leaf: the
    first gradient becomes a copy in `t.grad`, each later one is added into that same tensor,
    in place; no backward pass runs, and minigrad's own AccumulateGrad is not called."""
    from minigrad.autograd import accumulate as engine_accumulate

    checks = Checks("accumulate(t, grad)")
    forbidden = {engine_accumulate.accumulate_into: "minigrad's own accumulate_into",
                 engine_accumulate.AccumulateGrad.apply: "the engine's AccumulateGrad"}
    for shape, arrays in _accumulate_cases():
        which = f"for a leaf {shape}"
        t = tensor_of(np.zeros_like(arrays[0]), requires_grad=True)
        handed = [tensor_of(array.copy()) for array in arrays]
        grads, kept = [], []  # t.grad after each call, and the tensor it was
        with Watch(forbidden) as watch:
            for call_number, grad in enumerate(handed, 1):
                checks.call(accumulate_of, t, grad, doing=f"call {call_number} {which}")
                grads.append(value_data(t._grad) if t._grad is not None else None)
                kept.append(t._grad)
        if watch.backward_runs:
            checks.fail_now(f"{which}: it ran a backward pass, which did the adding for you. "
                            "Write the adding yourself, with .grad and tensor operations.")
        if watch.called:
            checks.fail_now(f"{which}: it calls {watch.called[0]}, which is what the lesson "
                            "asks you to write.")
        if not checks.expect(same_numbers(grads[0], arrays[0]),
                             f"{which}: after the first call, t.grad is not the gradient "
                             f"handed in (got {shown(grads[0])}). Hint: t.grad starts as None; "
                             "what must the first gradient become?"):
            continue
        sums = np.cumsum(arrays, axis=0)
        wrong = next((n for n in range(1, len(arrays)) if not same_numbers(grads[n], sums[n])),
                     None)
        if not checks.expect(wrong is None,
                             f"{which}: after call {(wrong or 0) + 1}, t.grad is not the sum "
                             f"of the {(wrong or 0) + 1} gradients handed in so far (got "
                             f"{shown(grads[wrong or 0])}). Hint: backward() never replaces "
                             ".grad; what does it do with the gradient already there?"):
            continue
        checks.expect(all(tensor is kept[0] for tensor in kept),
                      f"{which}: a later call put a new tensor in t.grad, so a name taken "
                      "for t.grad before it (held = t.grad) keeps the old value. Hint: add "
                      "into the tensor already there, in place (the section on keeping a "
                      "gradient).")
        checks.expect(same_numbers(handed[0], arrays[0]),
                      f"{which}: the first gradient handed in changed when the later ones "
                      "were added: t.grad is the caller's own tensor, which the caller may "
                      "still use. Hint: the first time, store a copy.")
    checks.verdict("accumulate copies the first gradient into .grad and adds each later one "
                   "into that same tensor, for 3 leaves.")
