"""Checks for exercises/ex16_saved_tensors.ipynb and lesson 16's build: what a graph keeps for
backward, seen through saved-tensor hooks."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor, tensor_of
from ..integrity.watch import Watch
from ._exercise import Exercise, call, prediction
from ._data import value_data
from ._feedback import Checks, same_numbers
from ._snippets import check_predictions

KEPT_SNIPPETS = {
    "x * x": """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
sizes = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
                                               lambda t: t):
    y = (x * x).sum()
print(sum(sizes))""",
    "exp": """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
sizes = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
                                               lambda t: t):
    y = (x.exp() + x).sum()
print(sum(sizes))""",
    "matmul": """\
X = torch.ones(2, 3, requires_grad=True)
W = torch.ones(3, 4)
sizes = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
                                               lambda t: t):
    y = (X @ W).sum()
print(sum(sizes))""",
    "no_grad": """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
sizes = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
                                               lambda t: t):
    with torch.no_grad():
        y = (x * x).sum()
print(sum(sizes))""",
}


CHECKPOINT_SNIPPET = """\
runs = []


def block(t):
    runs.append(1)
    return (t * t).sin()


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False).sum()
print(len(runs))
y.backward()
print(len(runs))"""


@prediction
def block_runs(answers: Any) -> None:
    check_predictions("your 2 predictions", answers, CHECKPOINT_SNIPPET,
                      ["before backward", "after backward"],
                      "Both right: a checkpointed block runs once forward and again when "
                      "backward needs what it did not keep.")


@prediction
def kept(answers: Any) -> None:
    check_predictions("your 4 predictions", answers, list(KEPT_SNIPPETS.values()),
                      ["program 1 (x * x)", "program 2 (exp)", "program 3 (X @ W)",
                       "program 4 (no_grad)"],
                      "All 4 right: an operation keeps what the gradients of the inputs "
                      "that need one are made from, and nothing when nothing is recorded.")


# Lesson 16's build: how many numbers a graph keeps. A case is (words, the leaves' shapes and
# whether each requires grad, what makes the loss from them, the numbers kept worked out by
# hand from what each node's backward needs, and how many tensors those are).
def _graphs(n: int, m: int, k: int) -> list[tuple]:
    return [
        (f"for (x * w).sin().sum() with x of {n} numbers needing no gradient",
         [((n,), False), ((n,), True)], lambda x, w: (x * w).sin().sum(), 2 * n, 2),
        (f"for (a * b).sum() with a and b of shape ({n}, {m})",
         [((n, m), True), ((n, m), True)], lambda a, b: (a * b).sum(), 2 * n * m, 2),
        (f"for (a.exp() + a).sum() with a of shape ({n}, {m})",
         [((n, m), True)], lambda a: (a.exp() + a).sum(), n * m, 1),
        (f"for (a + a).sum() with a of {k} numbers", [((k,), True)],
         lambda a: (a + a).sum(), 0, 0),
        ((f"for (a @ W).tanh().sum() with a of shape ({n}, {m}) and W of shape ({m}, {k}) "
          "needing no gradient"), [((n, m), True), ((m, k), False)],
         lambda a, W: (a @ W).tanh().sum(), m * k + n * k, 2),
    ]


def saved_numbers(saved_numbers: Callable) -> None:
    """Lesson 16's build: `saved_numbers(make_loss)` counts the numbers of every tensor kept
    for backward while make_loss() runs, and leaves the graph able to run backward."""
    checks = Checks("saved_numbers")
    rng = np.random.default_rng(160)
    for which, leaves, make, expected, _ in _graphs(*(int(v) for v in rng.integers(2, 6, 3))):
        tensors = [tensor_of(rng.uniform(-1, 1, size=shape).astype(np.float32),
                          requires_grad=needs) for shape, needs in leaves]
        made = []

        def make_loss(tensors=tensors, make=make, made=made) -> Tensor:
            made.append(make(*tensors))
            return made[-1]

        with Watch(given=(make_loss, make)):
            got = checks.call(saved_numbers, make_loss, doing="saved_numbers(make_loss)")
        checks.expect(len(made) == 1,
                      f"{which}: make_loss ran {len(made)} times. Hint: call it once, "
                      "inside the with block.")
        if checks.failures:
            break
        counted = got if isinstance(got, (int, np.integer)) and not isinstance(got, bool) \
            else None
        checks.expect(counted == expected,
                      f"{which}: that is not how many numbers the graph keeps (you returned "
                      f"{got!r:.40}). Hint: add up t.numel() for every tensor pack is given, "
                      "not the number of tensors.")
        try:
            made[0].backward()
            works = all(t._grad is not None for t in tensors if t.requires_grad)
        except Exception:  # noqa: BLE001 - a pack that kept something else breaks backward
            works = False
        checks.expect(works, f"{which}: backward failed on the graph afterwards. Hint: does "
                             "pack return the tensor it is given, and unpack what it receives?")
        if checks.failures:
            break
    checks.verdict("saved_numbers counts the numbers kept for backward for 5 graphs, and "
                   "backward still runs through them.")


# Exercise 16's store: a case is [which graph of _graphs, its sizes, its leaves' values].
def _store_cases(rng: np.random.Generator) -> list[list]:
    n, m, k = (int(v) for v in rng.integers(2, 6, size=3))
    return [[index, [n, m, k], [rng.uniform(-1, 1, size=shape).tolist() for shape, _ in leaves]]
            for index, (_, leaves, _, _, _) in enumerate(_graphs(n, m, k))]


def _store_graph(case: list) -> tuple[str, Callable, int, list[Tensor]]:
    which, leaves, make, _, count = _graphs(*case[1])[case[0]]
    tensors = [tensor_of(np.array(values, dtype=np.float32), requires_grad=needs)
               for values, (_, needs) in zip(case[2], leaves)]
    return which, make, count, tensors


def _store_run(kept_in_store: Callable, case: list) -> dict:
    _, make, count, tensors = _store_graph(case)

    def make_loss() -> Tensor:
        return make(*tensors)

    with Watch(given=(make_loss, make)):
        got = call(kept_in_store, make_loss, doing="kept_in_store(make_loss)")
    if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], Tensor)
            and isinstance(got[1], dict)):
        return {"returned": False}
    loss, store = got
    entries, all_tensors = len(store), all(isinstance(t, Tensor) for t in store.values())
    try:
        loss.backward()
        grads = [value_data(t._grad) for t in tensors if t.requires_grad]
    except Exception:  # noqa: BLE001 - a key that unpack cannot turn back into the tensor
        grads = None
    emptied_fails = None
    if count:
        fresh = _store_graph(case)[3]

        def fresh_loss() -> Tensor:
            return make(*fresh)

        with Watch(given=(fresh_loss, make)):
            again = call(kept_in_store, fresh_loss, doing="kept_in_store(make_loss)")
        if isinstance(again, tuple) and len(again) == 2 and isinstance(again[1], dict):
            again[1].clear()
            try:
                again[0].backward()
                emptied_fails = False
            except Exception:  # noqa: BLE001 - the tensors were only in the store
                emptied_fails = True
    return {"returned": True, "entries": entries, "all_tensors": all_tensors, "grads": grads,
            "emptied_fails": emptied_fails}


def _store_judge(checks: Checks, case: list, got: dict) -> None:
    which, make, count, tensors = _store_graph(case)
    if not got.get("returned"):
        checks.fail_now(f"{which}: it should return (loss, store), the loss make_loss() made "
                        "and the dict the tensors were put in.")
    checks.expect(got["entries"] == count and got["all_tensors"],
                  f"{which}: the store holds {got['entries']} entries, not one tensor for "
                  "each tensor kept for backward. Hint: pack puts the tensor it is given in "
                  "the store, under a key of its own.")
    make(*tensors).backward()  # the engine's own gradients, in the judge, without hooks
    wanted = [value_data(t._grad) for t in tensors if t.requires_grad]
    checks.expect(got["grads"] is not None and len(got["grads"]) == len(wanted) and all(
        same_numbers(mine, theirs) for mine, theirs in zip(got["grads"], wanted)),
        f"{which}: backward did not give the gradients it gives without hooks. Hint: "
        "unpack receives what pack returned.")
    checks.expect(got["emptied_fails"] is not False,
                  f"{which}: backward still ran after the store was emptied, so the graph "
                  "kept the tensors itself. Hint: what pack returns is what the graph keeps.")


kept_in_store = Exercise(
    "kept_in_store(make_loss)", ("kept_in_store",), cases=_store_cases, run=_store_run,
    judge=_store_judge, seed=161,
    success="kept_in_store keeps every tensor for backward in the store and only keys in the "
            "graph, for 5 graphs: backward works, and fails once the store is emptied.")
