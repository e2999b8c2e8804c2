"""Checks for exercises/ex05_non_scalar_outputs.ipynb and lesson 05's build: non-scalar outputs
and the `gradient` argument, a vector-Jacobian product, a Jacobian row by row."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of

from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, as_array, describe, same_numbers
from ._graphs import reaches
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


@prediction
def weighted(answers: Any) -> None:
    labels = ["x.grad with the gradient argument", "x.grad after mean().backward()"]
    check_predictions("your 2 predictions", answers, list(WEIGHTED_SNIPPETS.values()), labels,
                      "Both right: `gradient` weights each output; mean() weights them "
                      "all by 1/n.")


FUNCTIONS = {  # name -> (description, f from x and M, its Jacobian at x worked out by hand)
    "square": ("f(x) = x ** 2", lambda x, m: x ** 2, lambda x, m: np.diag(2 * x)),
    "matmul": ("f(x) = M @ x", lambda x, m: tensor_of(m) @ x, lambda x, m: m),
    "sum": ("f(x) = x * x.sum() (every output depends on every input)",
            lambda x, m: x * x.sum(), lambda x, m: np.diag([x.sum()] * len(x)) + x[:, None]),
    "tanh": ("f(x) = tanh(M @ x)", lambda x, m: (tensor_of(m) @ x).tanh(),
             lambda x, m: (1 - np.tanh(m @ x) ** 2)[:, None] * m),
}


def _jacobian_cases(rng: np.random.Generator) -> list[dict]:
    """Random numbers, other shapes at each grading: no Jacobian can be written in."""
    def case(kind: str, outputs: int, inputs: int) -> dict:
        return {"kind": kind, "x": rng.normal(size=inputs), "m": rng.normal(size=(outputs,
                                                                                 inputs))}
    sizes = [int(n) for n in rng.integers(2, 5, size=2)]
    return [case("square", 3, 3), case("matmul", 2, 3), case("matmul", 4, 2), case("sum", 2, 2),
            case("tanh", *sizes)]


# The exercise's functions take tensors of any shape: name -> (description, f from x and M,
# the shape of x for an M of shape (m, n), its Jacobian, of shape y.shape + x.shape, by hand).
SHAPED_FUNCTIONS = {
    "square": ("f(x) = x ** 2 on a matrix", lambda x, m: x ** 2, lambda m: m.shape,
               lambda x, m: np.einsum("ij,ik,jl->ijkl", 2 * x, np.eye(x.shape[0]),
                                      np.eye(x.shape[1]))),
    "matmul": ("f(x) = M @ x on a matrix", lambda x, m: tensor_of(m) @ x,
               lambda m: (m.shape[1], 2),
               lambda x, m: np.einsum("ac,bd->abcd", m, np.eye(x.shape[1]))),
    "row sums": ("f(x) = tanh(x).sum(dim=1)", lambda x, m: x.tanh().sum(dim=1),
                 lambda m: m.shape,
                 lambda x, m: np.einsum("ac,cd->acd", np.eye(x.shape[0]), 1 - np.tanh(x) ** 2)),
    "total": ("f(x) = (x * x).sum(), a single number", lambda x, m: (x * x).sum(),
              lambda m: m.shape, lambda x, m: 2 * x),
}


def _shaped_cases(rng: np.random.Generator) -> list[dict]:
    """The lesson's vectors, then matrices and a single number: J of shape y.shape + x.shape.
    Random numbers and sizes: no Jacobian can be written in."""
    def case(kind: str, outputs: int, inputs: int) -> dict:
        m = rng.normal(size=(outputs, inputs))
        return {"kind": kind, "x": rng.normal(size=SHAPED_FUNCTIONS[kind][2](m)), "m": m}
    vectors = _jacobian_cases(rng)
    sizes = [int(n) for n in rng.integers(2, 4, size=2)]
    return [vectors[1], vectors[3], case("square", 2, 3), case("matmul", 2, 3),
            case("row sums", *sizes), case("total", 3, 2)]


def _function(case: dict) -> tuple[str, Callable, Callable]:
    """(description, f, its Jacobian by hand) of a case of either table."""
    if case["kind"] in FUNCTIONS and case["x"].ndim == 1:
        description, f, exact = FUNCTIONS[case["kind"]]
    else:
        description, f, _, exact = SHAPED_FUNCTIONS[case["kind"]]
    return description, f, exact


def _jacobian_run(jacobian_of: Callable, case: dict) -> dict:
    from minigrad.autograd import functional

    f = _function(case)[1]
    x = tensor_of(case["x"].copy(), requires_grad=True)
    outputs: list[Tensor] = []

    def watched(t: Tensor) -> Tensor:  # notes f's outputs
        out = f(t, case["m"])
        outputs.append(out)
        return out

    passes: list[np.ndarray] = []

    def remember(grad: Tensor) -> None:  # each pass's row, flattened
        passes.append(np.array(grad._data).reshape(-1))

    x.register_hook(remember)
    with Watch({functional.jacobian: "torch.autograd.functional.jacobian"},
               given=(watched, f, remember)) as watch:
        mine = call(jacobian_of, watched, x)
    nodes = {out.grad_fn for out in outputs if isinstance(out, Tensor) and out.grad_fn}
    return {"jacobian": value_data(mine), "called": watch.called, "passes": passes,
            "backward_runs": watch.backward_runs,
            "from_f": all(reaches(run.roots[0], nodes) for run in watch.runs if run.roots)}


def _jacobian_judge(checks: Checks, case: dict, got: dict) -> None:
    description, _, exact = _function(case)
    expected = exact(case["x"], case["m"])
    x_shape = case["x"].shape
    y_shape = expected.shape[:expected.ndim - len(x_shape)]
    which = f"for {description}, y of shape {y_shape} and x of shape {x_shape}"
    if got["called"]:
        checks.fail_now(f"{which}: it calls {got['called'][0]}, which is what the exercise "
                        "asks you to write.")
    mine = as_array(got["jacobian"])
    if not checks.expect(mine is not None and mine.shape == expected.shape,
                         f"{which}: expected J of shape y.shape + x.shape = {expected.shape}, "
                         f"got {describe(got['jacobian'])}. Hint: one row per element of y, "
                         "each of x's shape; stack them, then reshape."):
        return
    checks.expect(same_numbers(mine, expected),
                  f"{which}: the entries are not the derivatives of each element of y. Hint: "
                  "x.grad accumulates; start each row from an empty .grad, copy it, and "
                  "check which element of y each one-hot gradient picks.")
    rows = list(expected.reshape(-1, case["x"].size))  # one per element of y, flattened
    wanted = len(rows)
    for grad in got["passes"]:
        match = next((i for i, row in enumerate(rows) if same_numbers(grad, row)), None)
        if match is not None:
            rows.pop(match)
    runs = got["backward_runs"]
    checks.expect(runs == wanted and got["from_f"] and not rows,
                  f"{which}: J should come from {wanted} backward passes through "
                  f"f's graph, one per element of y (it ran {runs}, "
                  f"{'not all' if not got['from_f'] else 'all'} from f's output). Hint: each "
                  "row is what one backward(v) with a one-hot v of y's shape leaves in x.grad.")


jacobian = Exercise(
    "jacobian(f, x)", ("jacobian_of",), cases=_shaped_cases, run=_jacobian_run,
    judge=_jacobian_judge, seed=6,
    hints={"Mismatch in shape": "the gradient argument of backward() has the shape of the "
                                "tensor it starts from: a one-hot of y's shape (notebook 05)."},
    success="jacobian builds J of shape y.shape + x.shape for vectors, matrices and a single "
            "number, one backward pass through f per element of y.")


def _vjp_cases(rng: np.random.Generator, shapes: tuple) -> list[dict]:
    drawn = tuple(int(n) for n in rng.integers(1, 6, size=2))
    return [{"W": rng.normal(size=(outputs, inputs)), "x": rng.normal(size=inputs),
             "v": rng.normal(size=outputs)} for outputs, inputs in (*shapes, drawn)]


def _vjp_run(vjp: Callable, case: dict) -> dict:
    with Watch() as watch:
        mine = call(vjp, tensor_of(case["W"].copy()), tensor_of(case["x"].copy()),
                    tensor_of(case["v"].copy()))
    return {"vjp": value_data(mine), "backward_runs": watch.backward_runs}


def _vjp_judge(checks: Checks, case: dict, got: dict) -> None:
    outputs, inputs = case["W"].shape
    leaf = tensor_of(case["x"].copy(), requires_grad=True)
    (tensor_of(case["W"]) @ leaf).tanh().backward(tensor_of(case["v"]))
    which = f"with W of shape ({outputs}, {inputs})"
    if got["backward_runs"]:
        checks.fail_now(f"{which}: it ran a backward pass (backward() or autograd.grad): "
                        "the exercise asks for the chain rule applied by hand, with tensor "
                        "operations.")
    mine = as_array(got["vjp"])
    if not checks.expect(mine is not None and mine.shape == (inputs,),
                         f"{which}: the result should have x's shape ({inputs},). Hint: a "
                         "vector-Jacobian product has one entry per input."):
        return
    checks.expect(same_numbers(mine, leaf.grad),
                  f"{which}: it differs from x.grad after tanh(W @ x).backward(v). Hint: go "
                  "backwards: first through tanh (its derivative is 1 - tanh²), then "
                  "through W @ x (a row vector times W).")


vjp_by_hand = Exercise(  # the hidden tests add other shapes
    "vjp_tanh(W, x, v)", ("vjp",), cases=lambda rng: _vjp_cases(rng, ((2, 3), (2, 3))),
    run=_vjp_run, judge=_vjp_judge, seed=7,
    success="Your vector-Jacobian product matches what backward(gradient=v) computes, for "
            "three W, without a backward pass.")
vjp_other_shapes = Exercise(
    "vjp_tanh(W, x, v)", ("vjp",), cases=lambda rng: _vjp_cases(rng, ((4, 2), (1, 5))),
    run=_vjp_run, judge=_vjp_judge, seed=8,
    success="It matches for other shapes of W too, without a backward pass.")


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# mse_gradient is still this, the exercise is not answered.
MSE_BUGGY = """\
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward()
    return w.grad"""


def _mse_cases(rng: np.random.Generator) -> list[dict]:
    def case(n: int) -> dict:
        xs = rng.normal(size=(n, 2))
        return {"xs": xs, "ys": xs @ np.array([2.0, -1.0]) + rng.normal(size=n),
                "w0": rng.normal(size=2)}
    return [case(6), case(3), case(1), case(int(rng.integers(2, 12)))]


def _mse_run(gradient_of_mse: Callable, case: dict) -> dict:
    w = tensor_of(case["w0"].copy(), requires_grad=True)
    passes: list[np.ndarray] = []

    def remember(grad: Tensor) -> None:
        passes.append(np.array(grad._data))

    w.register_hook(remember)
    with Watch(given=(remember,)):
        mine = call(gradient_of_mse, w, tensor_of(case["xs"].copy()), tensor_of(case["ys"].copy()))
    return {"gradient": value_data(mine), "passes": passes}


def _mse_judge(checks: Checks, case: dict, got: dict) -> None:
    xs, ys, w0 = case["xs"], case["ys"], case["w0"]
    expected = 2 * xs.T @ (xs @ w0 - ys) / len(xs)  # the mean squared error's, by hand
    mine = got["gradient"]
    n = len(case["xs"])
    which = f"with {n} sample{'s' if n != 1 else ''}"
    if not checks.expect(mine is not None, f"{which}: it should return w's gradient, not "
                         "None."):
        return
    checks.expect(same_numbers(mine, expected),
                  f"{which}: the gradient is not that of the mean squared error. Hint: "
                  "which single number is the loss, and what gradient do you get from a "
                  "gradient of ones? (notebook 05)")
    checks.expect(any(same_numbers(grad, mine) for grad in got["passes"]),
                  f"{which}: no backward pass brought that gradient to w: the exercise "
                  "asks for it from backward(), not worked out by hand.")


mse_gradient = Exercise(  # 3 samples, as the notebook shows, and others
    "mse_gradient(w, xs, ys)", ("gradient_of_mse",), cases=_mse_cases, run=_mse_run,
    judge=_mse_judge, seed=5, buggy=(MSE_BUGGY, "mse_gradient"),
    hints={"implicitly created": "backward() makes up a starting gradient only for a single "
                                 "number (notebook 05)."},
    success="mse_gradient returns the gradient of the mean squared error for 6, 3, 1 and "
            "another number of samples, from a backward pass.")


def _examples() -> list[tuple[str, Callable[[Tensor], Tensor], np.ndarray, np.ndarray]]:
    """(description, f, x, its Jacobian worked out by hand) for lesson 05's build: the graded
    exercise's kinds of function, on numbers from a fixed seed."""
    examples = []
    for case in _jacobian_cases(np.random.default_rng(6)):
        description, f, jacobian_at = FUNCTIONS[case["kind"]]
        x, m = case["x"], case["m"]
        examples.append((description, lambda t, f=f, m=m: f(t, m), x, jacobian_at(x, m)))
    return examples


def jacobian_rows(jacobian_of: Callable) -> None:
    """Lesson 05's build: `jacobian(y, x)` for a vector y already computed from the leaf x, one
    backward pass through y's graph per row (backward() or autograd.grad), without
    torch.autograd.functional.jacobian."""
    from minigrad.autograd import functional

    checks = Checks("jacobian(y, x)")
    for description, f, x0, expected in _examples():
        x = tensor_of(x0.copy(), requires_grad=True)
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
