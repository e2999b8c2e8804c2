"""Checks for exercises/ex07_hooks.ipynb and lesson 07's build: hooks that change a gradient,
that only watch it, that clip it in flight, and how backward runs a tensor's hooks in turn."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, describe, roughly, same_numbers, shown
from ._snippets import check_predictions

HOOK_SNIPPET = """\
x = torch.tensor(2.0, requires_grad=True)
h = x ** 2
h.register_hook(lambda grad: grad + 1)
y = h * 5
y.backward()
print(x.grad)"""


@prediction
def hook_changes_gradient(answer: Any) -> None:
    check_predictions("your prediction", answer, HOOK_SNIPPET, ["x.grad"],
                      "Right: a hook that returns a tensor changes every gradient upstream.",
                      hint="the hook's return value replaces h's gradient before it flows on.")


def _watched_graph(case: dict) -> tuple[Tensor, dict[str, Tensor], dict[str, np.ndarray]]:
    """(output, tensors to watch by name, their gradients worked out by hand): the graph of
    sum(tanh(w * x) * 3), or one where h feeds the output twice."""
    if case["kind"] == "tanh":
        x, w = tensor_of(case["x"].copy()), tensor_of(case["w"].copy(), requires_grad=True)
        pre = w * x
        act = pre.tanh()
        out = (act * 3).sum()
        d_act = np.full(len(case["x"]), 3.0)
        d_pre = d_act * (1 - np.tanh(case["w"] * case["x"]) ** 2)
        return (out, {"w": w, "pre": pre, "act": act},
                {"w": d_pre * case["x"], "pre": d_pre, "act": d_act})
    a0 = case["a"]
    a = tensor_of(a0.copy(), requires_grad=True)
    h = a * 2
    out = (h * h + h.sin()).sum()
    d_h = 2 * (2 * a0) + np.cos(2 * a0)
    return out, {"h": h, "a": a}, {"h": d_h, "a": 2 * d_h}


def _watch_run(watch_gradients: Callable, case: dict) -> dict:
    out, tensors, _ = _watched_graph(case)
    with Watch():
        seen = call(watch_gradients, tensors)
    if type(seen) is not dict:
        return {"seen": value_data(seen)}
    empty_before = not seen
    call(out.backward, doing="backward(), which runs your hooks,")
    leaf = next(name for name, t in tensors.items() if t.is_leaf)
    return {"empty_before": empty_before, "seen": value_data(seen),
            "retained": any(t.retains_grad for t in tensors.values()),
            "leaf": leaf, "leaf_grad": value_data(tensors[leaf]._grad)}


def _watch_judge(checks: Checks, case: dict, got: dict) -> None:
    _, tensors, expected = _watched_graph(case)
    which = f"on the graph of {'tanh(w * x)' if case['kind'] == 'tanh' else 'h * h + sin(h)'}"
    seen = got["seen"]
    if "empty_before" not in got:
        checks.fail_now(f"it should return a dict (to be filled later), not {describe(seen)}.")
    checks.expect(got["empty_before"], f"{which}: the dict should stay empty until backward() "
                  "runs. Hint: store gradients from inside the hooks, not when registering them.")
    stored = dict(seen["dict"])
    checks.expect(set(stored) == set(tensors), f"{which}: after backward(), the dict should "
                  "hold one gradient per name given. Hint: register one hook per tensor; "
                  "make each hook remember its own name (a default argument, or a helper "
                  "function).")
    for name in tensors:
        checks.expect(same_numbers(stored.get(name), expected[name]),
                      f"{which}: the gradient stored under {name!r} is not the one that "
                      "reached it.")
    checks.expect(not got["retained"], "use hooks only: retain_grad() changes the tensors you "
                  "watch.")
    checks.expect(same_numbers(got["leaf_grad"], expected[got["leaf"]]),
                  f"{which}: a leaf's .grad changed: a hook that only watches should "
                  "return None.")


watch = Exercise(
    "watch(tensors)", ("watch_gradients",), run=_watch_run, judge=_watch_judge, seed=11,
    cases=lambda rng: [{"kind": "tanh", "x": np.array([0.5, -1.0, 2.0]),
                        "w": np.array([1.0, 0.5, -0.25])}, {"kind": "twice",
                                                            "a": rng.normal(size=4)},
                       {"kind": "tanh", "x": rng.normal(size=3), "w": rng.normal(size=3)}],
    success="watch stores the gradient that reached each tensor on three graphs, one hook "
            "each, and changes none.")


def _clip_cases(rng: np.random.Generator) -> list[dict]:
    """An upstream gradient of a given norm in a random direction; in the shared cases the
    same gradient tensor also flows to another input of an Add, whose node runs after t's."""
    cases = []
    for max_norm, norm, shared in ((1.0, 10.0, False), (1.0, 0.5, False), (2.5, 4.0, False),
                                   (2.5, 2.0, False), (0.3, 0.9, False), (1.0, 3.0, True),
                                   (2.0, 1.0, True), (float(rng.uniform(0.2, 2)),
                                                      float(rng.uniform(2, 5)), True)):
        direction = rng.normal(size=3)
        cases.append({"max_norm": max_norm, "norm": norm, "shared": shared,
                      "upstream": direction / np.linalg.norm(direction) * norm,
                      "x0": rng.normal(size=3), "y0": rng.normal(size=3)})
    return cases


def _clip_graph(case: dict, clip_gradient: Callable) -> tuple[Tensor, Tensor]:
    """h = x * 2 gets the upstream gradient; shared: y * 3 gets that very tensor too."""
    y = tensor_of(case["y0"].copy(), requires_grad=True)
    g = y * 3  # made before h: its node runs after h's, with what h's hook left
    x = tensor_of(case["x0"].copy(), requires_grad=True)
    h = x * 2
    with Watch():
        call(clip_gradient, h, case["max_norm"])
    out = ((h + g) if case["shared"] else h) * tensor_of(case["upstream"])
    call(out.sum().backward, doing="backward(), which runs your hook,")
    return x, y


def _clip_run(clip_gradient: Callable, case: dict) -> dict:
    x, y = _clip_graph(case, clip_gradient)
    return {"x_grad": value_data(x._grad), "y_grad": value_data(y._grad)}


def _clip_judge(checks: Checks, case: dict, got: dict) -> None:
    upstream, max_norm, norm = case["upstream"], case["max_norm"], case["norm"]
    wanted = upstream * (max_norm / norm) if norm > max_norm else upstream
    checks.expect(same_numbers(got["x_grad"], 2 * wanted),
                  f"with a gradient of norm {norm:.3g} arriving at t and max_norm="
                  f"{max_norm:.3g}, x.grad is not 2 × the clipped gradient (expected "
                  f"{roughly(2 * wanted)}, got {shown(got['x_grad'])}). Hint: the hook must "
                  "return the rescaled gradient (norm max_norm, same direction) when the norm "
                  "is larger, and the gradient as it is otherwise.")
    if case["shared"]:
        checks.expect(same_numbers(got["y_grad"], 3 * upstream),
                      f"with t = x * 2 added to y * 3, the gradient arriving at t is the very "
                      f"tensor that also flows to y * 3, and y.grad changed (got "
                      f"{shown(got['y_grad'])}): your hook changed it in place. Hint: return "
                      "a new tensor from the hook instead of changing the one it receives.")


clip = Exercise(
    "clip_gradient(t, max_norm)", ("clip_gradient",), cases=_clip_cases, run=_clip_run,
    judge=_clip_judge, seed=12,
    success="clip_gradient rescales gradients above max_norm in flight and lets smaller ones "
            "pass, for several max_norm, without changing the gradient other inputs share.")


def _hook_cases() -> list[tuple[str, np.ndarray, list[tuple[str, float]]]]:
    """(the case in words, the gradient handed in, the hooks as (kind, number)) for lesson 07's
    build: "look" returns None, "scale" and "shift" return a new tensor."""
    rng = np.random.default_rng(70)
    grad = rng.normal(size=3).astype(np.float32)
    return [("hooks that look, scale, look, shift, look", grad,
             [("look", 0), ("scale", -3.0), ("look", 0), ("shift", 0.5), ("look", 0)]),
            ("two replacing hooks in a row, then one that looks", rng.normal(size=(2, 2))
             .astype(np.float32), [("shift", 2.0), ("scale", 0.25), ("look", 0)]),
            ("hooks that only look", grad, [("look", 0), ("look", 0)]),
            ("no hooks", grad, [])]


def _hooks_of(kinds: list[tuple[str, float]], seen: list) -> list[Callable]:
    """The check's hooks: each notes what it was handed (in `seen`, by its place), and a scale or
    shift hook returns a new tensor from a tensor it was handed (nothing from anything else)."""
    def hook_at(place: int, kind: str, number: float) -> Callable:
        def hook(grad: Any) -> Any:
            seen.append((place, value_data(grad) if isinstance(grad, Tensor) else grad))
            if kind == "look" or not isinstance(grad, Tensor):
                return None
            return tensor_of(grad._data * np.float32(number) if kind == "scale"
                          else grad._data + np.float32(number))
        return hook
    return [hook_at(place, kind, number) for place, (kind, number) in enumerate(kinds)]


def hooks_in_turn(run_hooks_of: Callable) -> None:
    """Lesson 07's build: `run_hooks(hooks, grad)` does what backward does with the hooks of a
    tensor whose gradient is ready: calls each in the order given with the gradient as it
    stands, a returned tensor replacing it for the hooks after, and returns what flows on."""
    from minigrad.autograd import node_call

    checks = Checks("run_hooks(hooks, grad)")
    forbidden = {node_call.call_tensor_hooks: "the engine's own call_tensor_hooks"}
    for words, start, kinds in _hook_cases():
        which = f"with {words}"
        seen: list = []
        grad, hooks = tensor_of(start.copy()), _hooks_of(kinds, seen)
        with Watch(forbidden, given=tuple(hooks)) as watch:  # the learner calls our hooks
            result = checks.call(run_hooks_of, hooks, grad, doing=f"run_hooks {which}", hints={
                "Boolean value of Tensor": "a tensor of several numbers is neither true nor "
                                           "false: ask whether the hook returned None."})
        if watch.backward_runs:
            checks.fail_now(f"{which}: it ran a backward pass, which called the hooks for you. "
                            "Call each hook yourself.")
        if watch.called:
            checks.fail_now(f"{which}: it calls {watch.called[0]}, which is what the lesson "
                            "asks you to write.")
        expected, handed = start.copy(), []  # what each hook should be handed, in turn
        for kind, number in kinds:
            handed.append(expected.copy())
            if kind != "look":
                expected = expected * np.float32(number) if kind == "scale" \
                    else expected + np.float32(number)
        places = [place for place, _ in seen]
        if not checks.expect(places == list(range(len(kinds))),
                             f"{which}: the hooks were called in the order {places}, not each "
                             f"once in the order given, {list(range(len(kinds)))}. Hint: every "
                             "hook runs, first registered first."):
            continue
        wrong = next((place for place, got in seen if not same_numbers(got, handed[place])),
                     None)
        checks.expect(wrong is None,
                      f"{which}: hook {wrong} was not handed the gradient as it stood after "
                      "the hooks before it. Hint: a hook that returns a tensor replaces the "
                      "gradient for the hooks after it; one that returns None leaves it as it "
                      "is (the first section).")
        checks.expect(same_numbers(result, expected),
                      f"{which}: what it returns is not the gradient that flows on after the "
                      f"last hook (got {shown(value_data(result))}).")
        checks.expect(same_numbers(value_data(grad), start),
                      f"{which}: the gradient handed in was changed in place; hooks replace "
                      "it by returning a new tensor, and the one handed in stays as it was.")
    checks.verdict("run_hooks calls each hook in turn with the gradient as it stands, and "
                   "returns what flows on, for 4 lists of hooks.")
