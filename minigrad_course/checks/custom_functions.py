"""Checks for exercises/ex12_custom_functions.ipynb: torch.autograd.Function subclasses (Cube,
Mul and Pow, a fixed Softplus), judged by their values, their node and gradcheck."""
from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd import Function
from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call
from ._feedback import Checks, same_numbers


def _what_it_is(function: Any) -> dict:
    """Is `function` a torch.autograd.Function subclass that keeps Function's own apply? The
    exercise is about writing forward and backward, not about dressing up another op."""
    if not (isinstance(function, type) and issubclass(function, Function)):
        return {"not_function": "a class" if isinstance(function, type) else
                f"a {type(function).__name__}"}
    return {"own_apply": getattr(function.apply, "__func__", None) is not Function.apply.__func__}


def _applied(function: Any, inputs: list, v: np.ndarray, name: str) -> dict:
    """function.apply on the inputs (tensors that require grad, then plain numbers), what its
    node holds, and the inputs' .grad after a backward with upstream gradient v."""
    tensors = [tensor_of(x.copy(), requires_grad=True) if isinstance(x, np.ndarray) else x
               for x in inputs]
    y = call(function.apply, *tensors, doing=f"{name}.apply(...)")
    found: dict = {"y": value_data(y)}
    node = getattr(y, "grad_fn", None) if isinstance(y, Tensor) else None
    found["own_node"] = node is not None and getattr(type(node), "_forward_cls", None) is function
    if found["own_node"]:
        found["kept"] = sorted(key for key, value in vars(node).items()
                               if not key.startswith("_") and isinstance(value, Tensor))
        found["saved"] = len(node._saved or ())
    if isinstance(y, Tensor) and y.requires_grad:
        with Watch() as watch:
            call(y.backward, tensor_of(v), doing="y.backward(v)")
        found["backward_runs"] = watch.backward_runs
        found["grads"] = [value_data(t._grad) if isinstance(t, Tensor) else None
                          for t in tensors]
    return found


def _judge_kind(checks: Checks, got: dict, name: str) -> None:
    if "not_function" in got:
        checks.fail_now(f"{name} should be a class that subclasses torch.autograd.Function; "
                        f"it is {got['not_function']} that does not.")
    if got["own_apply"]:
        checks.fail_now(f"{name} defines its own apply: write forward and backward, and let "
                        "torch.autograd.Function's apply connect them to the graph.")


def _judge_applied(checks: Checks, got: dict, name: str, value: np.ndarray,
                   grads: list, saves: int, wrong_grad: str, wrong_value: str) -> None:
    """The values, the node (its own, holding what forward saved, no tensor kept on ctx), one
    backward pass, and each input's gradient against what the judge works out by hand."""
    checks.expect(same_numbers(got["y"], value), wrong_value)
    checks.expect(got["own_node"], f"the result's grad_fn is not {name}'s node ({name}Backward). "
                  f"Hint: return what forward computes, and call {name}.apply, not "
                  f"{name}.forward.")
    if got["own_node"]:
        checks.expect(not got["kept"], f"forward keeps tensors as attributes of ctx "
                      f"({', '.join(got['kept'])}): tensors for backward go through "
                      "ctx.save_for_backward, which checks that they have not changed in place "
                      "before backward reads them (notebook 12).")
        checks.expect(got["saved"] >= saves, f"{name}'s forward should save the {saves} "
                      f"tensor{'s' if saves > 1 else ''} its backward needs with "
                      "ctx.save_for_backward.")
    if "grads" not in got:
        checks.fail_now(f"{name}.apply should return a tensor that requires grad when its "
                        "input does.")
    checks.expect(got["backward_runs"] == 1, f"{name}'s backward runs a backward pass of its "
                  "own: write the derivative with tensor operations instead (notebook 12).")
    checks.expect(lambda: all(mine is None if wanted is None else same_numbers(mine, wanted)
                              for mine, wanted in zip(got["grads"], grads, strict=True)),
                  wrong_grad)


def _points(rng: np.random.Generator, size: int, low: float = -2, high: float = 2) -> np.ndarray:
    return rng.uniform(low, high, size)


def _cube_run(function: Any, case: dict) -> dict:
    kind = _what_it_is(function)
    return kind if "not_function" in kind or kind["own_apply"] else \
        {**kind, **_applied(function, [case["x"]], case["v"], "Cube")}


def _cube_judge(checks: Checks, case: dict, got: dict) -> None:
    _judge_kind(checks, got, "Cube")
    x, v = case["x"], case["v"]
    _judge_applied(checks, got, "Cube", x ** 3, [3 * x ** 2 * v], 1,
                   "x.grad is not what the chain rule gives for an upstream gradient v. Hint: "
                   "backward receives the gradient of the output; multiply it by the "
                   "derivative of x ** 3.", "Cube.apply(x) should compute x ** 3.")


cube = Exercise(
    "Cube", ("function",), run=_cube_run, judge=_cube_judge, seed=17,
    cases=lambda rng: [{"x": _points(rng, n), "v": _points(rng, n)} for n in (3, 2, 5)],
    success="Cube passes: a Function with right values, its CubeBackward node in the graph "
            "holding what forward saved, and the gradient right for upstream gradients that "
            "are not all ones.")


def _mul_pow_run(mul: Any, pow_: Any, case: dict) -> dict:
    if case["which"] == "Mul":
        kind = _what_it_is(mul)
        inputs, function = [case["a"], case["b"]], mul
    else:
        kind = _what_it_is(pow_)
        inputs, function = [case["x"], case["n"]], pow_
    return kind if "not_function" in kind or kind["own_apply"] else \
        {**kind, **_applied(function, inputs, case["v"], case["which"])}


def _mul_pow_judge(checks: Checks, case: dict, got: dict) -> None:
    name, v = case["which"], case["v"]
    _judge_kind(checks, got, name)
    if name == "Mul":
        a, b = case["a"], case["b"]
        _judge_applied(checks, got, "Mul", a * b, [v * b, v * a], 2, _mul_mistake(got, a, b, v),
                       "Mul.apply(a, b) should compute a * b.")
        return
    x, n = case["x"], case["n"]
    _judge_applied(checks, got, "Pow", x ** n, [v * n * x ** (n - 1), None], 1,
                   f"Pow's gradient is wrong for n = {n:g}. Hint: which power of x does the "
                   "power rule leave, and is the upstream gradient grad_output in it?",
                   f"Pow.apply(x, {n:g}) should compute x ** {n:g}.")


def _mul_mistake(got: dict, a: np.ndarray, b: np.ndarray, v: np.ndarray) -> str:
    """What is wrong with Mul's gradients, named without the formula: the upstream gradient
    left out, the two gradients swapped, or something else."""
    grads = got.get("grads")
    mine = list(grads) if isinstance(grads, (list, tuple)) and len(grads) == 2 else [None, None]
    if same_numbers(mine[0], b) and same_numbers(mine[1], a):
        return ("Mul's gradients leave out grad_output, the gradient arriving from the output. "
                "Hint: the chain rule multiplies each local derivative by it.")
    if same_numbers(mine[0], v * a) and same_numbers(mine[1], v * b):
        return ("Mul's gradients are swapped: what came back for a belongs to b. Hint: how much "
                "does a * b move when a alone moves by 1?")
    return ("Mul's gradients are wrong. Hint: how much does a * b move when a alone moves by "
            "1, and what does the chain rule do with grad_output?")


def _mul_pow_cases(rng: np.random.Generator) -> list[dict]:
    cases = [{"which": "Mul", "a": _points(rng, 3), "b": _points(rng, 3), "v": _points(rng, 3)}]
    for n in (3, 2.5, -1, round(float(rng.uniform(-3, 4)), 2)):
        cases.append({"which": "Pow", "x": _points(rng, 3, 0.3, 2.0), "n": n,
                      "v": _points(rng, 3)})  # positive x: any n is defined
    return cases


mul_and_pow = Exercise(
    "Mul and Pow", ("mul", "pow_"), run=_mul_pow_run, judge=_mul_pow_judge, seed=18,
    cases=_mul_pow_cases,
    hints={"incorrect number of gradients": "backward returns one entry per input of "
           "forward: the gradient for x, then None for the number n.",
           "different than None": "n is a plain number, not a tensor: it gets no gradient, so "
           "its entry is None, not a tensor of zeros."},
    success="Mul and Pow pass: Functions whose nodes hold what forward saved, right values, "
            "and right gradients for both (Pow for n = 3, 2.5, -1 and another).")


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# Softplus is still this, the exercise is not answered.
SOFTPLUS_BUGGY = """\
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.sigmoid(x)"""


def _softplus_run(function: Any, case: dict) -> dict:
    kind = _what_it_is(function)
    return kind if "not_function" in kind or kind["own_apply"] else \
        {**kind, **_applied(function, [case["x"]], case["v"], "Softplus")}


def _softplus_judge(checks: Checks, case: dict, got: dict) -> None:
    _judge_kind(checks, got, "Softplus")
    x, v = case["x"], case["v"]
    _judge_applied(checks, got, "Softplus", np.log1p(np.exp(x)), [v / (1 + np.exp(-x))], 1,
                   "with an upstream gradient v that is not all ones, x.grad is wrong (sum() "
                   "sends all ones). Hint: what is grad_output, and what does the chain rule do "
                   "with it? (notebook 12)", "the forward values changed.")


softplus = Exercise(
    "Softplus", ("function",), run=_softplus_run, judge=_softplus_judge, seed=19,
    cases=lambda rng: [{"x": _points(rng, n), "v": _points(rng, n)} for n in (4, 2, 6)],
    buggy=(SOFTPLUS_BUGGY, "Softplus"),
    success="Softplus passes: same values, and x.grad right for upstream gradients that are "
            "not all ones.")
