"""Checks for exercises/ex08_inplace.ipynb: in-place operations and version counters."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, same_numbers, shown
from ._snippets import check_predictions

WHICH_RAISE_SNIPPETS = {
    "A": """\
w = torch.tensor([1.0, 2.0], requires_grad=True)
w += 1
print(w)""",
    "B": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.tanh()
y.mul_(2)
y.sum().backward()
print(x.grad)""",
    "C": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x / 2
y.add_(1)
y.sum().backward()
print(x.grad)""",
    "D": """\
x = torch.tensor([1.0, 4.0], requires_grad=True)
h = x * 1
r = h.sqrt()
h.mul_(4)
r.sum().backward()
print(x.grad)""",
}


@prediction
def which_raise(answers: Any) -> None:
    labels = [f"program {name}" for name in WHICH_RAISE_SNIPPETS]
    check_predictions("your 4 predictions", answers, list(WHICH_RAISE_SNIPPETS.values()),
                      labels, "All 4 right: an in-place change is an error exactly when "
                      "backward would need the old value.")


VERSIONS_SNIPPET = """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y._version)
y.add_(1)
y[0] = 0.0
print(y._version)"""


@prediction
def versions(answers: Any) -> None:
    check_predictions("your 2 predictions", answers, VERSIONS_SNIPPET,
                      ["the 1st print", "the 2nd print"],
                      "Both right: _version counts in-place changes.")


ITEM_ASSIGNMENT_SNIPPET = """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.zeros(3, 1)
y[0] = x[0] * x[1]
y[1] = x[1] ** 2
y[2] = x[2] * 3
y.backward(gradient=torch.ones(y.size()))
print(x.grad)"""


@prediction
def item_assignment(answers: Any) -> None:
    check_predictions("your prediction", answers, ITEM_ASSIGNMENT_SNIPPET, ["x.grad"],
                      "Right: each assignment is a CopySlices in the graph, and each x_i "
                      "collects the derivatives of all the elements it feeds.",
                      hint="x[1] appears in two outputs: its two contributions add up.")


DATA_SNIPPETS = {
    ".data": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
y.data.fill_(0.5)
y.sum().backward()
print(x.grad)""",
    "detach()": """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
y.detach().fill_(0.5)
y.sum().backward()
print(x.grad)""",
}


@prediction
def data_versus_detach(answers: Any) -> None:
    labels = ["x.grad after changing y.data", "x.grad after changing y.detach()"]
    check_predictions("your 2 predictions", answers, list(DATA_SNIPPETS.values()), labels,
                      "Both right: .data changes go unnoticed (and give wrong gradients); "
                      "detach() changes are caught.")


def _expected_loss(x0: np.ndarray) -> tuple[float, np.ndarray]:
    """The loss sum((s / sum(s))²) for s = sigmoid(x0), and its gradient, by the chain rule
    with numpy: for p = s / S, d(loss)/ds = 2 (p - loss) / S, and ds/dx = s (1 - s)."""
    s = 1 / (1 + np.exp(-x0))
    total = s.sum()
    p = s / total
    loss = float((p ** 2).sum())
    return loss, 2 * (p - loss) / total * s * (1 - s)


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# normalized_loss is still this, the exercise is not answered.
NORMALIZED_BUGGY = """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    y /= y.sum()
    return (y ** 2).sum()"""


def _normalized_run(loss_of: Callable, x0: np.ndarray) -> dict:
    x = tensor_of(x0.copy(), requires_grad=True)
    with Watch():
        loss = call(loss_of, x)
    if not isinstance(loss, Tensor) or not loss.requires_grad:
        return {"loss": value_data(loss)}
    call(loss.backward, doing="loss.backward()")
    return {"loss": value_data(loss), "grad": value_data(x._grad)}


def _normalized_judge(checks: Checks, x0: np.ndarray, got: dict) -> None:
    if "grad" not in got:
        checks.fail_now("it should return the loss as a tensor that requires grad.")
    value, grad = _expected_loss(x0)
    checks.expect(same_numbers(got["loss"], value),
                  "the loss value changed: keep the same computation.")
    checks.expect(same_numbers(got["grad"], grad), "x.grad is not the gradient of the loss. "
                  "Hint: a value autograd cannot follow gives wrong gradients instead of an "
                  "error: a change made through .data, or a number taken out with .item() "
                  "or detach(), is a constant to backward() (notebook 08).")


normalized_loss = Exercise(
    "normalized_loss(x)", ("loss_of",), run=_normalized_run, judge=_normalized_judge, seed=12,
    cases=lambda rng: [np.array([1.0, -2.0, 0.5]), np.array([0.0, 3.0]), rng.normal(size=5),
                       rng.normal(size=int(rng.integers(2, 8)))],
    buggy=(NORMALIZED_BUGGY, "normalized_loss"),
    hints={"inplace": "which tensor did sigmoid save for its backward, and what changed it "
                      "since? (notebook 08, version counters)"},
    success="normalized_loss keeps its value and goes backwards to the right gradient, for "
            "four x.")


def _in_place(kind: int, repeats: int) -> tuple[str, Callable[[Tensor], Any], int]:
    def repeated(t: Tensor) -> None:
        for _ in range(repeats):
            t.mul_(1.0)

    return [("t.add_(1)", lambda t: t.add_(1), 1),
            ("t + 1", lambda t: t + 1, 0),
            ("t[:1].mul_(2), through a view", lambda t: t[:1].mul_(2), 1),
            ("t.add_(1) then t.mul_(2)", lambda t: t.add_(1).mul_(2), 2),
            ("t.mul_(1), which leaves the values as they were", lambda t: t.mul_(1.0), 1),
            (f"t.mul_(1) {repeats} times", repeated, repeats),
            ("t.clone().add_(1), a separate copy", lambda t: t.clone().add_(1), 0),
            ("t.data.add_(1)", lambda t: t.data.add_(1), 0)][kind]


def _count_cases(rng: np.random.Generator) -> list[list[int]]:
    """[which function, how many repeats, how many changes t had before] per case, shuffled:
    an answer cannot follow the order of the calls, nor count from t's past."""
    repeats = int(rng.integers(3, 7))
    cases = [[kind, repeats, int(rng.integers(0, 4))] for kind in range(8)]
    rng.shuffle(cases)
    return cases


def _count_run(count: Callable, case: list[int]) -> dict:
    _, fn, _ = _in_place(case[0], case[1])
    t = tensor_of(np.zeros(3))
    for _ in range(case[2]):
        t.add_(5)
    calls: list[Tensor] = []

    def watched(arg: Tensor) -> Any:
        calls.append(arg)
        return fn(arg)

    with Watch(given=(watched, fn)):  # the check hands both to the answer
        result = call(count, watched, t)
    return {"count": value_data(result), "called_once_on_t": len(calls) == 1 and calls[0] is t}


def _count_judge(checks: Checks, case: list[int], got: dict) -> None:
    description, _, expected = _in_place(case[0], case[1])
    checks.expect(got["called_once_on_t"],
                  f"for fn(t) = {description}, fn should be called once, on t itself.")
    checks.expect(type(got["count"]) is int and got["count"] == expected,
                  f"for fn(t) = {description}, the count is wrong. Hint: what does autograd "
                  "keep count of for every tensor, views included? (notebook 08)")


count_inplace = Exercise(
    "count_inplace(fn, t)", ("count",), cases=_count_cases, run=_count_run,
    judge=_count_judge, seed=13,
    success="count_inplace counts the in-place changes of 8 functions, views included, "
            "whatever t's history.")


# Lesson 08's build: what a saved tensor keeps, and the check it makes when backward reads it.
# A change is (words, what it does to t, whether it moves t's version on).
_CHANGES = {"mul_(1)": ("t.mul_(1), which leaves the values as they were",
                        lambda t: t.mul_(1.0), True),
            "view": ("t[:1].add_(1), through a view", lambda t: t[:1].add_(1.0), True),
            "add_": ("t.add_(2)", lambda t: t.add_(2.0), True),
            "data": ("t.data.mul_(0), which the counter does not see",
                     lambda t: t.data.mul_(0.0), False)}


def _saved_cases(rng: np.random.Generator) -> list[tuple[int, list[str]]]:
    """(how many changes t had before it was saved, the changes after) per case: an answer can
    neither start every count at 0 nor tell a change by the values."""
    return [(int(rng.integers(1, 4)), []), (0, ["mul_(1)"]), (int(rng.integers(2, 5)), ["view"]),
            (0, []), (int(rng.integers(1, 4)), ["add_", "mul_(1)"]),
            (int(rng.integers(1, 4)), ["data"])]


def saved_versions(Saved: Callable) -> None:  # noqa: N803 - the learner's class, by its name
    """Lesson 08's build: `Saved(t)` keeps t and its version at that moment; `.unpack()`
    returns t itself while its version is still the one kept, and raises PyTorch's
    RuntimeError, naming both versions, once an in-place change has moved it on."""
    from minigrad.autograd import graph

    checks = Checks("Saved")
    forbidden = {code: f"minigrad's own {code.__qualname__}" for code in (
        graph.SavedTensor.__init__, graph.SavedTensor.unpack, graph.SavedTensor.unpack_array,
        graph.SavedOutput.__init__, graph.SavedOutput.unpack, graph.SavedOutput.unpack_array)}
    rng = np.random.default_rng(80)
    cases = [(before, changes, (f"for t changed {before} times before Saved(t), then "
                                if before else "for a new t saved, then ")
              + (" then ".join(_CHANGES[c][0] for c in changes) or "left alone"))
             for before, changes in _saved_cases(rng)]
    cases.append((2, ["add_"], "for t saved once, changed by t.add_(2), saved again"))
    for before, changes, which in cases:
        t = tensor_of(rng.normal(size=3).astype(np.float32))
        for _ in range(before):
            t.add_(1.0)
        moved = sum(_CHANGES[c][2] for c in changes)
        readings = []  # (the Saved, the version it should hold)
        watches = [Watch(forbidden), Watch(forbidden)]  # the check's own changes run between
        with watches[0]:
            readings.append((checks.call(Saved, t, doing="Saved(t)"), before))
        for change in changes:
            _CHANGES[change][1](t)
        results = []
        with watches[1]:
            if which.endswith("saved again"):
                readings.append((checks.call(Saved, t, doing="Saved(t)"), before + moved))
            for saved, _ in readings + readings:  # each read twice: reading changes nothing
                try:
                    results.append((saved.unpack(), None))
                except NotImplementedError:
                    checks.not_answered()
                except RuntimeError as error:
                    results.append((None, str(error)))
                except Exception as error:  # noqa: BLE001 - any crash of learner code
                    checks.fail_now(f"{which}: unpack() raised {type(error).__name__}: {error}")
        called = watches[0].called + watches[1].called
        if called:
            checks.fail_now(f"{which}: it calls {called[0]}, which does what the lesson "
                            "asks you to write.")
        if watches[0].backward_runs or watches[1].backward_runs:
            checks.fail_now(f"{which}: it ran a backward pass. Compare the versions yourself.")
        now = before + moved
        for place, ((got, words), (_, version)) in enumerate(zip(results, readings)):
            whose = f"{which}, the {'first' if place == 0 else 'second'} Saved" \
                if len(readings) > 1 else which
            again = results[place + len(readings)]
            checks.expect(again[1] == words and (words is not None or again[0] is got),
                          f"{whose}: a second unpack() did not give what the first gave; "
                          "reading a saved tensor changes nothing.")
            if version == now:
                checks.expect(words is None, f"{whose}: unpack() raised ({words}), but t's "
                              "version is still the one saved: its values are the ones "
                              "backward needs.")
                checks.expect(words is not None or got is t,
                              f"{whose}: unpack() did not return t itself (got "
                              f"{shown(value_data(got))}). Hint: a saved input is the very "
                              "tensor, as `_saved_self is h` showed.")
            else:
                checks.expect(words is not None, f"{whose}: unpack() returned, though t's "
                              "version moved on since it was saved. Hint: compare the "
                              "version kept with `_version` now, not the values.")
                wanted = f"is at version {now}; expected version {version} instead"
                checks.expect(words is None or ("modified by an inplace operation" in words
                                                and wanted in words),
                              f"{whose}: the error does not say PyTorch's words with the "
                              "versions of this case: 'one of the variables needed for "
                              "gradient computation has been modified by an inplace "
                              "operation: ... is at version N; expected version M instead', "
                              "N the version now and M the one kept.")
        if checks.failures:
            break
    checks.verdict("Saved keeps a tensor with its version, and unpack() returns it unchanged "
                   "or raises PyTorch's error with both versions, for 7 cases.")
