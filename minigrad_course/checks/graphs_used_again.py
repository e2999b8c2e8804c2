"""Checks for exercises/ex09_graphs_used_again.ipynb and lesson 09's build: retain_graph and
autograd.grad."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, same_numbers
from ._snippets import check_predictions

TWICE_SNIPPETS = {
    "retain_graph": """\
x = torch.tensor(1.5, requires_grad=True)
y = 4 * x ** 2
y.backward(retain_graph=True)
y.backward()
print(x.grad)""",
    "twice": """\
x = torch.tensor(1.5, requires_grad=True)
y = 4 * x ** 2
y.backward()
y.backward()
print(x.grad)""",
    "autograd.grad": """\
x = torch.tensor(1.5, requires_grad=True)
y = 4 * x ** 2
(g,) = torch.autograd.grad(y, x)
print(g)
print(x.grad)""",
}


@prediction
def twice(answers: Any) -> None:
    labels = ["program 1 (retain_graph)", "program 2 (backward twice)", "program 3, g",
              "program 3, x.grad"]
    check_predictions("your 4 predictions", answers, list(TWICE_SNIPPETS.values()), labels,
                      "All 4 right: retain_graph keeps the graph; autograd.grad leaves "
                      ".grad alone.")


INPUTS_SNIPPET = """\
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(5.0, requires_grad=True)
loss = a * b + b
loss.backward(inputs=[a], retain_graph=True)
print(a.grad)
print(b.grad)
loss.backward(inputs=[b])
print(a.grad)
print(b.grad)"""


@prediction
def named_inputs(answers: Any) -> None:
    check_predictions("your 4 predictions", answers, INPUTS_SNIPPET,
                      ["a.grad", "b.grad", "a.grad again", "b.grad again"],
                      "All 4 right: backward(inputs=...) fills the .grad of the tensors "
                      "named, and only theirs.")


# Exercise 09's gradients at intermediates. A kind is (words, what makes the named tensors and
# the loss from a leaf w and an untracked x, each named tensor's gradient worked out by hand).
def _at_kind(kind: str, k: float) -> tuple[str, Callable, dict[str, Callable]]:
    def tanh(w: Tensor, x: Tensor) -> tuple[dict, Tensor]:
        h = (w * x).tanh()
        return {"h": h, "w": w}, (h * h).sum() + w.sum()

    def exp(w: Tensor, x: Tensor) -> tuple[dict, Tensor]:
        u = w.exp()
        return {"u": u, "w": w}, (u * w).sum()

    def scaled(w: Tensor, x: Tensor) -> tuple[dict, Tensor]:
        z = w * k
        return {"z": z}, z.sin().sum()

    return {
        "tanh": ("for h = (w * x).tanh() and loss = (h * h).sum() + w.sum(), asked at h and w",
                 tanh, {"h": lambda w, x: 2 * np.tanh(w * x),
                        "w": lambda w, x: 2 * np.tanh(w * x) * (1 - np.tanh(w * x) ** 2) * x
                        + 1}),
        "exp": ("for u = w.exp() and loss = (u * w).sum(), asked at u and w", exp,
                {"u": lambda w, x: w, "w": lambda w, x: np.exp(w) * (1 + w)}),
        "scaled": (f"for z = w * {k:.2f} and loss = z.sin().sum(), asked at z alone", scaled,
                   {"z": lambda w, x: np.cos(w * k)}),
    }[kind]


def _at_cases(rng: np.random.Generator) -> list[list]:
    return [[kind, float(rng.uniform(0.5, 1.5)), rng.uniform(-1.2, 1.2, size=3).tolist(),
             rng.uniform(-1.2, 1.2, size=3).tolist()] for kind in ("tanh", "exp", "scaled")]


def _values(numbers: list) -> np.ndarray:
    return np.array(numbers, dtype=np.float32)


def _at_run(gradients_at: Callable, case: list) -> dict:
    _, make, _ = _at_kind(case[0], case[1])
    w = tensor_of(_values(case[2]), requires_grad=True)
    tensors, loss = make(w, tensor_of(_values(case[3])))
    with Watch() as watch:
        got = call(gradients_at, loss, dict(tensors), doing="gradients_at(loss, tensors)")
    runs = watch.runs
    return {"gradients": {str(name): value_data(g) for name, g in got.items()}
            if isinstance(got, dict) else None,
            "passes": len(runs), "from_loss": bool(runs) and runs[0].roots[0] is loss,
            "grad_filled": any(run.accumulate for run in runs) or w._grad is not None,
            "retained": any(t._retains_grad for t in tensors.values())}


def _at_judge(checks: Checks, case: list, got: dict) -> None:
    which, _, exact = _at_kind(case[0], case[1])
    w, x = _values(case[2]).astype(np.float64), _values(case[3]).astype(np.float64)
    gradients = got["gradients"]
    checks.expect(isinstance(gradients, dict) and sorted(gradients) == sorted(exact) and all(
        same_numbers(gradients[name], f(w, x)) for name, f in exact.items()),
        f"{which}: the dict does not map each name to the gradient of loss with respect "
        "to that tensor. Hint: torch.autograd.grad takes a list of inputs, intermediates "
        "as well as leaves, and returns their gradients in that order.")
    checks.expect(got["passes"] == 1 and got["from_loss"],
                  f"{which}: it ran {got['passes']} passes; one pass from loss gives every "
                  "gradient at once.")
    checks.expect(not got["grad_filled"] and not got["retained"],
                  f"{which}: .grad was filled, or retain_grad() asked for. Hint: "
                  "torch.autograd.grad hands the gradients back and leaves .grad alone.")


gradients_at = Exercise(
    "gradients_at(loss, tensors)", ("gradients_at",), cases=_at_cases, run=_at_run,
    judge=_at_judge, seed=91,
    success="gradients_at gives the gradient at each named tensor, intermediates too, from "
            "one autograd.grad pass, for 3 graphs.")

# Lesson 09's build: several losses over one graph, a gradient for each, one pass per loss.
# A case is (words, what makes the shared tensor from x, what makes the losses from it, each
# loss's gradient with respect to x worked out by hand in numpy).
def _losses_cases(rng: np.random.Generator) -> list[tuple]:
    k = float(rng.uniform(0.5, 1.5))
    return [
        ("for h = x.sin() and the losses h.sum(), (h * h).sum(), (h * k).exp().sum()",
         lambda x: x.sin(), lambda h: [h.sum(), (h * h).sum(), (h * k).exp().sum()],
         [np.cos, lambda v: 2 * np.sin(v) * np.cos(v),
          lambda v: k * np.cos(v) * np.exp(k * np.sin(v))]),
        ("for one loss, (x * x).sum()", lambda x: x * x, lambda p: [p.sum()],
         [lambda v: 2 * v]),
        ("for s = (x * x).sum() and the losses s * k, then s", lambda x: x * x,
         lambda p: [p.sum() * k, p.sum()], [lambda v: 2 * k * v, lambda v: 2 * v]),
    ]


def one_pass_each(each_gradient: Callable) -> None:
    """Lesson 09's build: `each_gradient(losses, x)` returns the gradient of each loss with
    respect to x, from one autograd.grad pass per loss through their shared graph; every pass
    but the last keeps the graph, the last frees it, and x.grad stays None."""
    checks = Checks("each_gradient")
    rng = np.random.default_rng(90)
    hints = {"backward through the graph a second time": "the first pass freed what the graph "
             "saved, and the next loss's pass needs it: which argument keeps it? (above)"}
    for which, make_shared, make_losses, exact in _losses_cases(rng):
        values = rng.uniform(-1.5, 1.5, size=3).astype(np.float32)
        x = tensor_of(values, requires_grad=True)
        shared = make_shared(x)  # its node saves x: a pass that frees the graph drops it
        losses = make_losses(shared)
        with Watch() as watch:
            got = checks.call(each_gradient, losses, x, hints=hints,
                              doing="each_gradient(losses, x)")
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        checks.expect(len(got) == len(losses) and all(
            same_numbers(value_data(g), f(values.astype(np.float64)))
            for g, f in zip(got, exact)),
            f"{which}: the list is not each loss's own gradient with respect to x, in the "
            "losses' order. Hint: one torch.autograd.grad(loss, x) per loss.")
        checks.expect(x._grad is None and not any(run.accumulate for run in watch.runs),
                      f"{which}: backward() ran (or x.grad was filled). Hint: "
                      "torch.autograd.grad hands the gradients back and leaves .grad alone.")
        roots = [run.roots for run in watch.runs]
        checks.expect(len(roots) == len(losses) and all(
            len(r) == 1 and any(r[0] is loss for loss in losses) for r in roots),
            f"{which}: it did not run one pass per loss, from that loss alone (it ran "
            f"{len(roots)} passes for {len(losses)} losses).")
        try:
            shared.grad_fn._saved_self
            freed = False
        except RuntimeError:  # freed, as backward leaves a graph it need not keep
            freed = True
        checks.expect(freed and not any(run.create_graph for run in watch.runs),
                      f"{which}: the graph is still kept after the last pass. Hint: only the "
                      "passes that another pass follows need to keep it.")
        if checks.failures:
            break
    checks.verdict("each_gradient gives every loss its own gradient, one autograd.grad pass "
                   "each through the shared graph, which the last pass frees, for 3 sets of "
                   "losses.")
