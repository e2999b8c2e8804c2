"""Checks for exercises/ex06_retain_grad.ipynb and lesson 06's build: an intermediate's .grad,
retain_grad(), is_leaf and retains_grad, gradients along a chain."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, describe, same_numbers
from ._snippets import check_predictions

RETAIN_SNIPPET = """\
x = torch.tensor(1.0, requires_grad=True)
h = x + 2
h.retain_grad()
y = h * h * x
y.backward()
print(x.grad)
print(h.grad)
print(y.grad)
print(h.is_leaf)"""


@prediction
def retained(answers: Any) -> None:
    labels = ["x.grad", "h.grad", "y.grad", "h.is_leaf"]
    check_predictions("your 4 predictions", answers, RETAIN_SNIPPET, labels,
                      "All 4 right: retain_grad() keeps a non-leaf's gradient, and only that.")


def _network(seed: int, rows: int, inputs: int, hidden: int) -> tuple[Tensor, Tensor, Tensor]:
    rng = np.random.default_rng(seed)
    return (tensor_of(rng.normal(size=(rows, inputs))),
            tensor_of(rng.normal(size=(inputs, hidden)), requires_grad=True),
            tensor_of(rng.normal(size=(hidden, 1)), requires_grad=True))


def _expected_gradients(x: Tensor, w1: Tensor, w2: Tensor) -> tuple[np.ndarray, ...]:
    """d(out)/d(hidden), then w1.grad and w2.grad, for out = (relu(x @ w1) @ w2).sum(): the
    chain rule written out with numpy (out adds up hidden @ w2, so each row of hidden gets w2
    as its gradient), not the retain_grad() the exercise asks for."""
    x, w1, w2 = x._data, w1._data, w2._data
    before_relu = x @ w1
    d_hidden = np.ones((len(x), 1)) @ w2.T
    d_w1 = x.T @ (d_hidden * (before_relu > 0))
    d_w2 = np.maximum(before_relu, 0).T @ np.ones((len(x), 1))
    return d_hidden, d_w1, d_w2


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# hidden_gradient is still this, the exercise is not answered.
HIDDEN_BUGGY = """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    out = (hidden @ w2).sum()
    out.backward()
    return hidden.grad"""


def _hidden_run(find_gradient: Callable, case: list) -> dict:
    x, w1, w2 = _network(*case)
    with Watch({Tensor.retain_grad: "retain_grad"}) as watch:
        result = call(find_gradient, x, w1, w2)
    late = any(runs for name, runs in zip(watch.called, watch.backward_runs_before)
               if name == "retain_grad")
    return {"result": value_data(result), "backward_runs": watch.backward_runs,
            "retained_too_late": late and result is None,
            "accumulated": any(run.accumulate for run in watch.runs),
            "w1_grad": value_data(w1._grad), "w2_grad": value_data(w2._grad)}


def _hidden_judge(checks: Checks, case: list, got: dict) -> None:
    expected, w1_grad, w2_grad = _expected_gradients(*_network(*case))
    result = got["result"]
    which = f"with hidden of shape {case[1], case[3]}"
    if got["retained_too_late"]:
        checks.fail_now(f"{which}: it returns None: retain_grad() ran after backward() had "
                        "already run, and it only asks a later backward pass to keep the "
                        "gradient. Hint: in which order must the request and the pass come? "
                        "(notebook 06)")
    if not checks.expect(result is not None, f"{which}: it returns None: reading .grad on "
                         "an intermediate gives None. Hint: which tensors does backward() "
                         "keep a .grad for, and how does a tensor ask to be one of them? "
                         "(notebook 06)"):
        return
    checks.expect(same_numbers(result, expected),
                  f"{which}: the result is not d(out)/d(hidden) (got {describe(result)}). "
                  f"Hint: it has hidden's shape; entry (i, j) says how much out moves when "
                  "hidden[i, j] alone moves by 1.")
    checks.expect(got["backward_runs"] > 0, f"{which}: no backward pass ran: the exercise "
                  "asks for the gradient backward() computes, not one worked out by hand.")
    if got["accumulated"]:  # backward() ran: it must reach the weights
        checks.expect(same_numbers(got["w1_grad"], w1_grad) and
                      same_numbers(got["w2_grad"], w2_grad),
                      f"{which}: after your backward(), w1.grad and w2.grad are not those "
                      "of out: the fix cut the network (detach(), a new leaf), so the "
                      "weights no longer learn. Hint: keep the graph from x to out whole.")


hidden_gradient = Exercise(
    "hidden_gradient(x, w1, w2)", ("find_gradient",), run=_hidden_run, judge=_hidden_judge,
    cases=lambda rng: [[0, 4, 3, 5], [10, 2, 4, 3],
                       [int(rng.integers(11, 10**6)), *(int(n) for n in rng.integers(1, 6, 3))]],
    buggy=(HIDDEN_BUGGY, "hidden_gradient"),
    success="hidden_gradient returns d(out)/d(hidden) for three networks, from a backward "
            "pass that leaves the weights' gradients whole.")


TOO_LATE_SNIPPET = """\
x = torch.tensor(3.0, requires_grad=True)
x.retain_grad()
h = x * x
y = h * 2
y.backward()
h.retain_grad()
print(x.retains_grad)
print(x.grad)
print(h.retains_grad)
print(h.grad)"""


@prediction
def too_late(answers: Any) -> None:
    labels = ["x.retains_grad", "x.grad", "h.retains_grad", "h.grad"]
    check_predictions("your 4 predictions", answers, TOO_LATE_SNIPPET, labels,
                      "All 4 right: retain_grad() is a request for the next backward(), "
                      "not for the one already run.")


def _chain(seed: int, layers: int) -> tuple[float, list[float]]:
    rng = np.random.default_rng(seed)
    return float(rng.uniform(-1, 1)), [float(w) for w in rng.uniform(0.5, 2.0, layers)]


def _chain_expected(x0: float, weights: list[float]) -> tuple[list[float], float]:
    """d(output)/d(h_k) for every layer, h_1's first, and d(output)/dx, by the chain rule."""
    h, layers = x0, []
    for w in weights:
        h = math.tanh(w * h)
        layers.append(h)
    grads, grad = [], 1.0
    for w, h in zip(reversed(weights), reversed(layers)):
        grads.append(grad)
        grad *= w * (1 - h * h)
    return grads[::-1], grad


def chain_gradients(gradients_of: Callable) -> None:
    """Lesson 06's build: `chain_gradients(x, weights)` returns the gradient of the output with
    respect to every layer h_k = tanh(w_k h_(k-1)), from one backward pass that also fills
    x.grad (retain_grad(), or hooks)."""
    checks = Checks("chain_gradients(x, weights)")
    for seed, layers in ((3, 5), (4, 2), (5, 1)):
        x0, weights = _chain(seed, layers)
        expected, x_grad = _chain_expected(x0, weights)
        x = tensor_of(x0, requires_grad=True)
        which = f"with {layers} layer{'s' if layers > 1 else ''}"
        with Watch() as watch:
            grads = checks.call(gradients_of, x, list(weights), doing=f"chain_gradients {which}")
        if not isinstance(grads, (list, tuple)) or len(grads) != layers:
            checks.fail_now(f"{which}: it should return a list of {layers} gradients, one per "
                            f"layer, got {describe(grads)}.")
        if not checks.expect(all(g is not None for g in grads),
                             f"{which}: some gradients are None: an intermediate keeps its "
                             ".grad only when asked. Hint: when must retain_grad() be called, "
                             "before or after backward()?"):
            continue
        checks.expect(lambda grads=grads, expected=expected: all(
            same_numbers(g, e) for g, e in zip(grads, expected)),
            f"{which}: the gradients are not those of the output with respect to each layer, "
            "h_1's first. Hint: keep every h_k, the output included, and read them after one "
            "backward() on the output.")
        runs = watch.backward_runs
        if runs != 1:
            checks.expect(False, f"{which}: it ran {runs} backward passes; one backward() on "
                          "the output computes every gradient at once.")
        elif checks.expect(watch.runs[0].accumulate, f"{which}: it used "
                           "torch.autograd.grad, which fills no .grad; call backward() on the "
                           "output, with the layers' gradients kept."):
            checks.expect(same_numbers(x.grad, x_grad),
                          f"{which}: x.grad is not the gradient of the output: the chain "
                          "should start from x itself.")
    checks.verdict("chain_gradients returns each layer's gradient for chains of 5, 2 and 1 "
                   "layers, from one backward() that also fills x.grad.")
