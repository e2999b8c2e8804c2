"""Checks for exercises/ex01_tensors_and_graphs.ipynb: leaves, requires_grad, grad_fn."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers, show_graphs
from ._guards import Watch
from ._snippets import check_predictions

LEAVES_SNIPPET = """\
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c = a * b
d = c + b
e = b * 2
for t in (a, b, c, d, e):
    print(t.is_leaf)
    print(t.requires_grad)"""


def leaves(answers: Any) -> None:
    names = "abcde"
    labels = [f"{name}.{attribute}" for name in names for attribute in ("is_leaf",
                                                                       "requires_grad")]
    check_predictions("your 10 predictions", answers, LEAVES_SNIPPET, labels,
                      "All 10 right: leaves are the tensors no recorded operation produced.")


CHAIN_SNIPPET = """\
x = torch.tensor(3.0, requires_grad=True)
y = (x * 2 + 1) ** 2
node = y.grad_fn
while node is not None:
    print(type(node).__name__)
    node = node.next_functions[0][0] if node.next_functions else None"""


def grad_fn_chain(answers: Any) -> None:
    labels = ["the 1st name", "the 2nd name", "the 3rd name", "the 4th name"]
    check_predictions("the names along y's graph", answers, CHAIN_SNIPPET, labels,
                      "Right: walking next_functions replays the operations backwards.")


def show_target() -> Any:
    """The graph learners rebuild in exercise 01-build-the-graph. Its formula is written here
    and in `build_the_graph`, never as a function of this module: the learner's namespace
    holds this module as `check`, and the exercise asks for the formula."""
    from minigrad import viz

    a = Tensor(2.0, requires_grad=True)
    b = Tensor(-1.0, requires_grad=True)
    out = (a * b + b) ** 2
    return viz.draw(out, names={a: "a", b: "b", out: "out"})


def _operations(t: Tensor) -> Counter:
    """How many times each kind of operation appears in t's graph (each node counted once)."""
    counts: Counter = Counter()
    for node in _breadth_first(t):
        if type(node).__name__ != "AccumulateGrad":
            counts[type(node).__name__] += 1
    return counts


def _wiring(t: Tensor, leaves: dict) -> str:
    """t's graph written out as nested operations, "PowBackward0(AddBackward0(...))", each
    node's inputs sorted (a*b and b*a are the same picture), the leaves by name. Equal for
    two graphs only when every arrow joins the same kinds of nodes. Built bottom-up with an
    explicit stack: no recursion."""
    written: dict = {}
    stack = [t.grad_fn]
    while stack:
        node = stack[-1]
        inputs = [child for child, _ in node.next_functions if child is not None]
        waiting = [child for child in inputs if child not in written]
        if waiting:
            stack.extend(waiting)
            continue
        stack.pop()
        if type(node).__name__ == "AccumulateGrad":
            written[node] = leaves.get(node.variable, "another leaf")
        else:
            wired_in = ", ".join(sorted(written[child] for child in inputs))
            written[node] = f"{type(node).__name__}({wired_in})"
    return written[t.grad_fn]


def _leaf_grads(build: Callable, a_value: float, b_value: float) -> list[Any]:
    a, b = Tensor(a_value, requires_grad=True), Tensor(b_value, requires_grad=True)
    build(a, b).backward()
    return [a._grad, b._grad]


def build_the_graph(build: Callable) -> None:
    def _target(a: Tensor, b: Tensor) -> Tensor:  # show_target's formula (see there)
        return (a * b + b) ** 2

    checks = Checks("build(a, b)")
    a, b = Tensor(2.0, requires_grad=True), Tensor(-1.0, requires_grad=True)
    with Watch():
        out = checks.call(build, a, b)
    if not isinstance(out, Tensor) or not out.requires_grad:
        checks.fail_now("it should return a tensor computed from a and b (so it requires "
                        "grad). Hint: return the result of operations on a and b.")
    rng = np.random.default_rng(1)
    cases = [(2.0, -1.0), (0.5, 3.0), *(tuple(rng.normal(size=2)) for _ in range(3))]
    checks.expect(lambda: all(same_numbers(build(Tensor(x), Tensor(y)),
                                           _target(Tensor(x), Tensor(y))) for x, y in cases),
                  "its value differs from the pictured graph's for some a and b. Hint: read "
                  "the operations in the picture from the leaves to the output.")
    checks.expect(lambda: _operations(out) == _operations(_target(a, b)),
                  "its graph has other operations (or more of them) than the picture. Hint: "
                  "count the oval nodes; each operation you write adds one.")
    checks.expect(lambda: _wiring(out, {a: "a", b: "b"}) == _wiring(_target(a, b),
                                                                 {a: "a", b: "b"}),
                  "its operations are wired differently from the picture: some arrow joins "
                  "other nodes (equal values are not enough, the graph is asked). Hint: follow "
                  "each arrow in the picture: which leaf or operation feeds which operation?")
    checks.expect(lambda: all(same_numbers(mine, theirs) for case in cases for mine, theirs
                              in zip(_leaf_grads(build, *case), _leaf_grads(_target, *case))),
                  "a.grad or b.grad differ from the pictured graph's after backward. Hint: "
                  "check which inputs feed each operation.")
    if checks.failures:
        show_graphs([("your graph", out), ("the expected graph", _target(a, b))],
                    names={a: "a", b: "b"})
    checks.verdict("Your graph is the pictured one: same operations, same arrows, and the same "
                   "values and grads for several a and b.")


def _breadth_first(t: Tensor) -> list:
    order, seen, queue = [], set(), [t.grad_fn] if t.grad_fn is not None else []
    for node in queue:  # the list grows while we walk it: a queue without recursion
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        queue.extend(child for child, _ in node.next_functions if child is not None)
    return order


def _example_graphs() -> list[Tensor]:
    w = Tensor(np.array([1.0, -2.0]), requires_grad=True)
    x = Tensor(np.array([0.5, 4.0]))
    b = Tensor(3.0, requires_grad=True)
    shared = w * w
    return [(w * x).sum() + b, (shared + shared).exp().sum(), Tensor(1.0), w]


def walk(reachable_nodes: Callable) -> None:
    checks = Checks("reachable_nodes(t)")
    recursive: set[str] = set()
    for index, t in enumerate(_example_graphs()):
        with Watch() as watch:
            mine = checks.call(reachable_nodes, t)
        expected = _breadth_first(t)
        recursive.update(watch.recursive)
        which = f"on example {index + 1}"
        if not checks.expect(isinstance(mine, list), f"{which}: it should return a list."):
            continue
        unique_nodes = all(hasattr(n, "next_functions") for n in mine) and \
            len(mine) == len(set(mine))
        checks.expect(unique_nodes, f"{which}: every item should be a node (a grad_fn), each "
                      "listed once. Hint: remember which nodes you have already visited.")
        checks.expect(unique_nodes and set(mine) == set(expected),
                      f"{which}: some reachable nodes are missing or extra. Hint: follow every "
                      "entry of next_functions, skip the None ones, and start at t.grad_fn "
                      "(a leaf has no grad_fn, so nothing is reachable from it).")
        failed_before = len(checks.failures)
        checks.expect(mine == expected,
                      f"{which}: the nodes are not in breadth-first order. Hint: visit nodes "
                      "in the order you first meet them (a queue, not a stack).")
        if len(checks.failures) > failed_before and t.grad_fn is not None:
            show_graphs([(f"example {index + 1}, the nodes your function should list", t)],
                        view="backward")
    _no_recursion(checks, recursive)
    checks.verdict("reachable_nodes lists every node breadth-first, each once, on 4 graphs, "
                   "without recursion.")


def walk_deep(reachable_nodes: Callable) -> None:
    """A chain of 5,000 operations: a recursive walk runs out of Python's stack."""
    x = Tensor(1.0, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y * 1.0
    checks = Checks("reachable_nodes on a 5,000-step chain")
    with Watch() as watch:
        mine = checks.call(reachable_nodes, y, hints={
            "recursion": "write the walk with a list used as a queue instead of recursion."})
    _no_recursion(checks, set(watch.recursive))
    checks.expect(isinstance(mine, list) and len(mine) == 5001,
                  "it should list all 5,001 nodes of the chain.")
    checks.verdict("reachable_nodes lists all 5,001 nodes of a deep chain, and none of your "
                   "functions called itself.")


def _no_recursion(checks: Checks, recursive: set[str]) -> None:
    checks.expect(not recursive, f"{', '.join(sorted(recursive))} calls itself: a walk "
                  "by recursion fails on graphs deeper than Python's recursion limit, whatever "
                  "the limit is set to. Hint: keep the nodes still to visit in a list.")
