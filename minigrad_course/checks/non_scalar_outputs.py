"""Checks for exercises/ex05_non_scalar_outputs.ipynb and lesson 05's build: non-scalar outputs
and the `gradient` argument, a vector-Jacobian product, a Jacobian row by row."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, as_array, describe, same_numbers
from ._guards import Watch, reaches
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
    check_predictions("your 2 predictions", answers, list(WEIGHTED_SNIPPETS.values()), labels,
                      "Both right: `gradient` weights each output; mean() weights them "
                      "all by 1/n.")


def _examples() -> list[tuple[str, Callable[[Tensor], Tensor], np.ndarray, np.ndarray]]:
    """(description, f, x, its Jacobian worked out by hand), from random numbers with a fixed
    seed: no Jacobian can be written into an answer."""
    rng = np.random.default_rng(6)
    m, m2 = rng.normal(size=(2, 3)), rng.normal(size=(4, 2))
    x1, x2, x3 = rng.normal(size=3), rng.normal(size=2), rng.normal(size=2)
    return [
        ("f(x) = x ** 2", lambda x: x ** 2, x1, np.diag(2 * x1)),
        ("f(x) = M @ x (2 outputs, 3 inputs)", lambda x: Tensor(m) @ x, x1, m),
        ("f(x) = M @ x (4 outputs, 2 inputs)", lambda x: Tensor(m2) @ x, x3, m2),
        ("f(x) = x * x.sum() (every output depends on every input)",
         lambda x: x * x.sum(), x2, np.diag([x2.sum()] * 2) + x2[:, None]),
    ]


def jacobian(jacobian_of: Callable) -> None:
    from minigrad.autograd import functional

    checks = Checks("jacobian(f, x)")
    for description, f, x0, expected in _examples():
        x = Tensor(x0.copy(), requires_grad=True)
        outputs: list[Tensor] = []

        def watched(t: Tensor, f: Callable = f) -> Tensor:  # notes f's outputs
            out = f(t)
            outputs.append(out)
            return out

        passes: list[np.ndarray] = []

        def remember(grad: Tensor, passes: list = passes) -> None:  # each pass's row
            passes.append(np.array(grad._data))

        x.register_hook(remember)
        with Watch({functional.jacobian: "torch.autograd.functional.jacobian"},
                   given=(watched, f, remember)) as watch:
            mine = as_array(checks.call(jacobian_of, watched, x))
        which = f"for {description}"
        if watch.called:
            checks.fail_now(f"{which}: it calls {watch.called[0]}, which is what the exercise "
                            "asks you to write.")
        if not checks.expect(mine is not None and mine.shape == expected.shape,
                             f"{which}: expected a matrix with one row per output and one "
                             "column per input. Hint: row i is x.grad after a backward with a "
                             "one-hot gradient picking output i."):
            continue
        checks.expect(same_numbers(mine, expected),
                      f"{which}: the rows are not the derivatives of each output. Hint: "
                      "x.grad accumulates; start each row from an empty .grad, and copy it.")
        nodes = {out.grad_fn for out in outputs if isinstance(out, Tensor) and out.grad_fn}
        from_f = all(reaches(run.roots[0], nodes) for run in watch.runs if run.roots)
        rows = [row for row in expected]
        for grad in passes:
            match = next((i for i, row in enumerate(rows) if same_numbers(grad, row)), None)
            if match is not None:
                rows.pop(match)
        checks.expect(watch.backward_runs == len(expected) and from_f and not rows,
                      f"{which}: J should come from {len(expected)} backward passes through "
                      f"f's graph, one per row (it ran {watch.backward_runs}, "
                      f"{'not all' if not from_f else 'all'} from f's output). Hint: each "
                      "row is what one backward(v) with a one-hot v leaves in x.grad.")
    checks.verdict("jacobian builds J for 4 functions, one backward pass through f per row.")


def _tanh_case(seed: int, outputs: int, inputs: int) -> tuple[Tensor, Tensor, Tensor]:
    rng = np.random.default_rng(seed)
    return (Tensor(rng.normal(size=(outputs, inputs))), Tensor(rng.normal(size=inputs)),
            Tensor(rng.normal(size=outputs)))


def vjp_by_hand(vjp: Callable, cases: tuple = ((0, 2, 3), (7, 2, 3)),
                success: str = "Your vector-Jacobian product matches what backward(gradient=v) "
                               "computes, for two W, without a backward pass.") -> None:
    """`cases` lists (seed, outputs, inputs); the hidden tests add other shapes."""
    checks = Checks("vjp_tanh(W, x, v)")
    for seed, outputs, inputs in cases:
        W, x, v = _tanh_case(seed, outputs, inputs)
        leaf = Tensor(x._data.copy(), requires_grad=True)
        (W @ leaf).tanh().backward(v)
        with Watch() as watch:
            mine = as_array(checks.call(vjp, W, x, v))
        which = f"with W of shape ({outputs}, {inputs})"
        if watch.backward_runs:
            checks.fail_now(f"{which}: it ran a backward pass (backward() or autograd.grad): "
                            "the exercise asks for the chain rule applied by hand, with tensor "
                            "operations.")
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
                success="It matches for other shapes of W too, without a backward pass.")


def _regression(seed: int, n: int) -> tuple[Tensor, Tensor, np.ndarray]:
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(n, 2))
    return Tensor(xs), Tensor(xs @ np.array([2.0, -1.0]) + rng.normal(size=n)), rng.normal(size=2)


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
    for seed, n in ((5, 6), (8, 3), (9, 1)):  # 3 samples, as the notebook shows, and others
        xs, ys, w0 = _regression(seed, n)
        w = Tensor(w0.copy(), requires_grad=True)
        passes: list[np.ndarray] = []

        def remember(grad: Tensor, passes: list = passes) -> None:
            passes.append(np.array(grad._data))

        w.register_hook(remember)
        with Watch(given=(remember,)):
            mine = checks.call(gradient_of_mse, w, xs, ys, hints={
                "implicitly created": "backward() makes up a starting gradient only for a "
                                      "single number (notebook 05)."})
        reference = Tensor(w0.copy(), requires_grad=True)
        ((xs @ reference - ys) ** 2).mean().backward()
        which = f"with {n} samples"
        if not checks.expect(mine is not None, f"{which}: it should return w's gradient, not "
                             "None."):
            continue
        checks.expect(same_numbers(mine, reference.grad),
                      f"{which}: the gradient is not that of the mean squared error. Hint: "
                      "which single number is the loss, and what gradient do you get from a "
                      "gradient of ones? (notebook 05)")
        checks.expect(any(same_numbers(grad, mine) for grad in passes),
                      f"{which}: no backward pass brought that gradient to w: the exercise "
                      "asks for it from backward(), not worked out by hand.")
    checks.verdict("mse_gradient returns the gradient of the mean squared error for 6, 3 and 1 "
                   "samples, from a backward pass.")


def jacobian_rows(jacobian_of: Callable) -> None:
    """Lesson 05's build: `jacobian(y, x)` for a vector y already computed from the leaf x, one
    backward pass through y's graph per row (backward() or autograd.grad), without
    torch.autograd.functional.jacobian."""
    from minigrad.autograd import functional

    checks = Checks("jacobian(y, x)")
    for description, f, x0, expected in _examples():
        x = Tensor(x0.copy(), requires_grad=True)
        y = f(x)
        which = f"for {description}"
        with Watch({functional.jacobian: "torch.autograd.functional.jacobian"}) as watch:
            mine = as_array(checks.call(jacobian_of, y, x, doing=f"jacobian(y, x) {which}"))
        if watch.called:
            checks.fail_now(f"{which}: it calls {watch.called[0]}, which is what the lesson "
                            "asks you to write.")
        if not checks.expect(mine is not None and mine.shape == expected.shape,
                             f"{which}: expected a matrix with one row per element of y and "
                             f"one column per element of x, got {describe(mine)}. Hint: row i "
                             "is x.grad after a backward with a one-hot gradient picking y[i]."):
            continue
        checks.expect(same_numbers(mine, expected),
                      f"{which}: the rows are not the derivatives of each element of y. Hint: "
                      "x.grad accumulates, and a name for x.grad is that very tensor "
                      "(notebooks 03 and 04): start each row from an empty .grad.")
        checks.expect(watch.backward_runs == len(expected) and
                      all(run.roots and run.roots[0] is y for run in watch.runs),
                      f"{which}: J should come from {len(expected)} backward passes through "
                      f"y, one per row (it ran {watch.backward_runs}). Hint: each row is what "
                      "one y.backward(gradient=one_hot, retain_graph=True) leaves in x.grad.")
    checks.verdict("jacobian(y, x) builds J for 4 functions, one backward pass through y per "
                   "row.")
