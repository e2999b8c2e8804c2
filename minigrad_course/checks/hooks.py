"""Checks for exercises/ex07_hooks.ipynb: hooks that change a gradient, that only watch it, and
that clip it in flight."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers, shown
from ._guards import Watch, roughly
from ._snippets import check_predictions

HOOK_SNIPPET = """\
x = torch.tensor(2.0, requires_grad=True)
h = x ** 2
h.register_hook(lambda grad: grad + 1)
y = h * 5
y.backward()
print(x.grad)"""


def hook_changes_gradient(answer: Any) -> None:
    check_predictions("your prediction", answer, HOOK_SNIPPET, ["x.grad"],
                      "Right: a hook that returns a tensor changes every gradient upstream.",
                      hint="the hook's return value replaces h's gradient before it flows on.")


def _watched_graphs() -> list[tuple[Tensor, dict[str, Tensor], dict[str, np.ndarray]]]:
    """(output, tensors to watch by name, their gradients worked out by hand): the graph of
    sum(tanh(w * x) * 3), and one with random values where h feeds the output twice."""
    x = Tensor(np.array([0.5, -1.0, 2.0]))
    w = Tensor(np.array([1.0, 0.5, -0.25]), requires_grad=True)
    pre = w * x
    act = pre.tanh()
    out = (act * 3).sum()
    d_act = np.full(3, 3.0)
    d_pre = d_act * (1 - np.tanh(w._data * x._data) ** 2)
    first = (out, {"w": w, "pre": pre, "act": act},
             {"w": d_pre * x._data, "pre": d_pre, "act": d_act})
    a0 = np.random.default_rng(11).normal(size=4)
    a = Tensor(a0.copy(), requires_grad=True)
    h = a * 2
    out2 = (h * h + h.sin()).sum()
    d_h = 2 * (2 * a0) + np.cos(2 * a0)
    return [first, (out2, {"h": h, "a": a}, {"h": d_h, "a": 2 * d_h})]


def watch(watch_gradients: Callable) -> None:
    checks = Checks("watch(tensors)")
    for index, (out, tensors, expected) in enumerate(_watched_graphs()):
        which = f"on graph {index + 1}"
        with Watch():
            seen = checks.call(watch_gradients, tensors)
        if not isinstance(seen, dict):
            checks.fail_now(f"it should return a dict (to be filled later), not "
                            f"{type(seen).__name__}.")
        checks.expect(not seen, f"{which}: the dict should stay empty until backward() runs. "
                      "Hint: store gradients from inside the hooks, not when registering them.")
        checks.call(out.backward, doing="backward(), which runs your hooks,")
        checks.expect(set(seen) == set(tensors), f"{which}: after backward(), the dict should "
                      "hold one gradient per name given. Hint: register one hook per tensor; "
                      "make each hook remember its own name (a default argument, or a helper "
                      "function).")
        for name in tensors:
            checks.expect(same_numbers(seen.get(name), expected[name]),
                          f"{which}: the gradient stored under {name!r} is not the one that "
                          "reached it.")
        checks.expect(not any(t.retains_grad for t in tensors.values()),
                      "use hooks only: retain_grad() changes the tensors you watch.")
        leaf = next(t for t in tensors.values() if t.is_leaf)
        checks.expect(same_numbers(leaf.grad, expected[next(name for name, t in tensors.items()
                                                            if t is leaf)]),
                      f"{which}: a leaf's .grad changed: a hook that only watches should "
                      "return None.")
    checks.verdict("watch stores the gradient that reached each tensor on two graphs, one "
                   "hook each, and changes none.")


def _clipped_case(seed: int, norm: float) -> tuple[Tensor, Tensor, Tensor, np.ndarray]:
    """h = x * 2 with an upstream gradient of the given norm in a random direction."""
    rng = np.random.default_rng(seed)
    direction = rng.normal(size=3)
    upstream = direction / np.linalg.norm(direction) * norm
    x = Tensor(rng.normal(size=3), requires_grad=True)
    h = x * 2
    out = (h * Tensor(upstream)).sum()
    return x, h, out, upstream


def clip(clip_gradient: Callable) -> None:
    checks = Checks("clip_gradient(t, max_norm)")
    for seed, max_norm, norm in ((0, 1.0, 10.0), (1, 1.0, 0.5), (2, 2.5, 4.0), (3, 2.5, 2.0),
                                 (4, 0.3, 0.9)):
        x, h, out, upstream = _clipped_case(seed, norm)
        with Watch():
            checks.call(clip_gradient, h, max_norm)
        checks.call(out.backward, doing="backward(), which runs your hook,")
        wanted = upstream * (max_norm / norm) if norm > max_norm else upstream
        checks.expect(lambda x=x, wanted=wanted: same_numbers(x.grad, 2 * wanted),
                      f"with a gradient of norm {norm:g} arriving at t and max_norm={max_norm:g}, "
                      f"x.grad is not 2 × the clipped gradient (expected {roughly(2 * wanted)}, "
                      f"got {shown(x.grad)}). Hint: the hook must return the rescaled gradient "
                      "(norm max_norm, same direction) when the norm is larger, and the gradient "
                      "as it is otherwise.")
    checks.verdict("clip_gradient rescales gradients above max_norm in flight and lets smaller "
                   "ones pass, for max_norm 1, 2.5 and 0.3.")
