"""Checks for exercises/ex05_non_scalar_outputs.ipynb: non-scalar outputs and the `gradient`
argument, a vector-Jacobian product."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, as_array, same_numbers
from ._snippets import check_predictions

WEIGHTED_SNIPPETS = {
    "with gradient": """\
x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
y = x ** 3
y.backward(torch.tensor([1.0, 2.0, 0.5]))
print(x.grad)""",
    "mean": """\
x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
y = x ** 3
y.mean().backward()
print(x.grad)""",
}


def weighted(answers: Any) -> None:
    labels = ["x.grad with the gradient argument", "x.grad after mean().backward()"]
    hints = ["each dy_i/dx_i = 3·x_i² is multiplied by the weight given for y_i.",
             "mean() is the sum times 1/3: it sends a gradient of 1/3 to each y_i."]
    check_predictions("your 2 predictions", answers, list(WEIGHTED_SNIPPETS.values()), labels,
                      hints, "Both right: `gradient` weights each output; mean() weights them "
                      "all by 1/n.")


ITEM_ASSIGNMENT_SNIPPET = """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.zeros(3, 1)
y[0] = x[0] * x[1]
y[1] = x[1] ** 2
y[2] = x[2] * 3
y.backward(gradient=torch.ones(y.size()))
print(x.grad)"""


def item_assignment(answers: Any) -> None:
    check_predictions("your prediction", answers, ITEM_ASSIGNMENT_SNIPPET, ["x.grad"],
                      ["x[1] appears in two outputs: its two contributions add up."],
                      "Right: with a gradient of ones, each x_i collects the sum of the "
                      "derivatives of all outputs it feeds.")


def _examples() -> list[tuple[str, Callable[[Tensor], Tensor], np.ndarray, np.ndarray]]:
    """(description, f, x, its Jacobian worked out by hand)."""
    m = np.array([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])
    x1, x2 = np.array([1.0, -2.0, 0.5]), np.array([0.5, 2.0])
    return [
        ("f(x) = x ** 2", lambda x: x ** 2, x1, np.diag(2 * x1)),
        ("f(x) = M @ x (2 outputs, 3 inputs)", lambda x: Tensor(m) @ x, x1, m),
        ("f(x) = x * x.sum() (every output depends on every input)",
         lambda x: x * x.sum(), x2, np.diag([x2.sum()] * 2) + x2[:, None]),
    ]


def jacobian(jacobian_of: Callable) -> None:
    checks = Checks("jacobian(f, x)")
    for description, f, x0, expected in _examples():
        x = Tensor(x0.copy(), requires_grad=True)
        mine = as_array(checks.call(jacobian_of, f, x))
        which = f"for {description}"
        if not checks.expect(mine is not None and mine.shape == expected.shape,
                             f"{which}: expected a matrix with one row per output and one "
                             "column per input. Hint: row i is x.grad after a backward with a "
                             "one-hot gradient picking output i."):
            continue
        checks.expect(same_numbers(mine, expected),
                      f"{which}: the rows are not the derivatives of each output. Hint: "
                      "x.grad accumulates; start each row from an empty .grad, and copy it.")
    checks.verdict("jacobian builds J one row per backward, with one-hot gradients.")


def _tanh_case(seed: int, outputs: int, inputs: int) -> tuple[Tensor, Tensor, Tensor]:
    rng = np.random.default_rng(seed)
    return (Tensor(rng.normal(size=(outputs, inputs))), Tensor(rng.normal(size=inputs)),
            Tensor(rng.normal(size=outputs)))


def vjp_by_hand(vjp: Callable, cases: tuple = ((0, 2, 3),),
                success: str = "Your vector-Jacobian product matches what backward(gradient=v) "
                               "computes.") -> None:
    """`cases` lists (seed, outputs, inputs); the hidden tests add other shapes."""
    checks = Checks("vjp_tanh(W, x, v)")
    for seed, outputs, inputs in cases:
        W, x, v = _tanh_case(seed, outputs, inputs)
        leaf = Tensor(x._data.copy(), requires_grad=True)
        (W @ leaf).tanh().backward(v)
        mine = as_array(checks.call(vjp, W, x, v))
        which = f"with W of shape ({outputs}, {inputs})"
        if not checks.expect(mine is not None and mine.shape == (inputs,),
                             f"{which}: the result should have x's shape ({inputs},). Hint: a "
                             "vector-Jacobian product has one entry per input."):
            continue
        checks.expect(same_numbers(mine, leaf.grad),
                      f"{which}: it differs from x.grad after tanh(W @ x).backward(v). Hint: go "
                      "backwards: first through tanh (its derivative is 1 - tanh²), then "
                      "through W @ x (a row vector times W).")
    checks.verdict(success)


def vjp_other_shapes(vjp: Callable) -> None:
    vjp_by_hand(vjp, cases=((1, 4, 2), (2, 1, 5)),
                success="It matches for other shapes of W too.")


def _regression() -> tuple[Tensor, Tensor, np.ndarray]:
    rng = np.random.default_rng(5)
    xs = rng.normal(size=(6, 2))
    return Tensor(xs), Tensor(xs @ np.array([2.0, -1.0])), np.array([0.5, 0.5])


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# mse_gradient is still this, the exercise is not answered.
MSE_BUGGY = """\
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward()
    return w.grad"""


def mse_gradient(gradient_of_mse: Callable) -> None:
    checks = Checks("mse_gradient(w, xs, ys)")
    checks.require_changed(gradient_of_mse, MSE_BUGGY, "mse_gradient")
    xs, ys, w0 = _regression()
    w = Tensor(w0.copy(), requires_grad=True)
    mine = checks.call(gradient_of_mse, w, xs, ys, hints={
        "implicitly created": "the loss must be one number: reduce the squared errors."})
    reference = Tensor(w0.copy(), requires_grad=True)
    ((xs @ reference - ys) ** 2).mean().backward()
    checks.expect(mine is not None, "it should return w.grad, not None.")
    checks.expect(mine is None or same_numbers(mine, reference.grad),
                  "the gradient is not that of the mean squared error. Hint: a gradient of "
                  "ones gives the gradient of the sum; the mean divides by the number of "
                  "samples.")
    checks.verdict("mse_gradient reduces the errors to one number, then backpropagates.")
