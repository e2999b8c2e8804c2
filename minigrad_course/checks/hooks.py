"""Checks for exercises/ex07_hooks.ipynb: hooks that change a gradient, that only watch it, and
that clip it in flight."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers, versus
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
                      ["the hook's return value replaces h's gradient before it flows on."],
                      "Right: a hook that returns a tensor changes every gradient upstream.")


def _watched_graph() -> tuple[Tensor, dict[str, Tensor], dict[str, np.ndarray]]:
    """out = sum(tanh(w * x) * 3): tensors to watch, and their gradients worked out by hand."""
    x = Tensor(np.array([0.5, -1.0, 2.0]))
    w = Tensor(np.array([1.0, 0.5, -0.25]), requires_grad=True)
    pre = w * x
    act = pre.tanh()
    out = (act * 3).sum()
    d_act = np.full(3, 3.0)
    d_pre = d_act * (1 - np.tanh(w._data * x._data) ** 2)
    return out, {"w": w, "pre": pre, "act": act}, {"w": d_pre * x._data, "pre": d_pre,
                                                  "act": d_act}


def watch(watch_gradients: Callable) -> None:
    checks = Checks("watch(tensors)")
    out, tensors, expected = _watched_graph()
    seen = checks.call(watch_gradients, tensors)
    if not isinstance(seen, dict):
        checks.fail_now(f"it should return a dict (to be filled later), not "
                        f"{type(seen).__name__}.")
    checks.expect(not seen, "the dict should stay empty until backward() runs. Hint: store "
                  "gradients from inside the hooks, not when registering them.")
    checks.call(out.backward, doing="backward(), which runs your hooks,")
    checks.expect(set(seen) == set(tensors), "after backward(), the dict should hold one "
                  "gradient per name given. Hint: register one hook per tensor; make each "
                  "hook remember its own name (a default argument, or a helper function).")
    for name in tensors:
        checks.expect(same_numbers(seen.get(name), expected[name]),
                      f"the gradient stored under {name!r} is not the one that reached it.")
    checks.expect(not any(t.retains_grad for t in tensors.values()),
                  "use hooks only: retain_grad() changes the tensors you watch.")
    checks.expect(same_numbers(tensors["w"].grad, expected["w"]),
                  "w.grad changed: a hook that only watches should return None.")
    checks.verdict("watch sees every gradient as it flows past, and changes nothing.")


def _clipped_case(scale: float) -> tuple[Tensor, Tensor, Tensor, np.ndarray]:
    """h = x * 2 with an upstream gradient of `scale` * [3, 4] (norm 5 * scale)."""
    x = Tensor(np.array([1.0, 1.0]), requires_grad=True)
    h = x * 2
    out = (h * Tensor(np.array([3.0, 4.0]) * scale)).sum()
    return x, h, out, np.array([3.0, 4.0]) * scale


def clip(clip_gradient: Callable) -> None:
    checks = Checks("clip_gradient(t, max_norm)")
    for scale, label in ((2.0, "a gradient of norm 10"), (0.1, "a gradient of norm 0.5")):
        x, h, out, upstream = _clipped_case(scale)
        checks.call(clip_gradient, h, 1.0)
        checks.call(out.backward, doing="backward(), which runs your hook,")
        norm = np.linalg.norm(upstream)
        wanted = upstream / norm if norm > 1.0 else upstream
        checks.expect(lambda x=x, wanted=wanted: same_numbers(x.grad, 2 * wanted),
                      f"with {label} arriving at t and max_norm=1, x.grad is not 2 × the "
                      f"clipped gradient ({versus(x.grad, 2 * wanted)}). Hint: the hook must "
                      "return the rescaled gradient (grad * max_norm / norm) when the norm is "
                      "larger, and the gradient as it is otherwise.")
    checks.verdict("clip_gradient rescales big gradients in flight and lets small ones pass.")
