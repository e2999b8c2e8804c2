"""Checks for exercises/ex01_tensors_and_graphs.ipynb: leaves, requires_grad, grad_fn."""
from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd import engine
from minigrad.tensor import Tensor, tensor_of
from . import _graphs
from ..integrity.watch import Watch
from ._data import tensor_data, value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, same_numbers
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


@prediction
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
    print(node.name())
    node = node.next_functions[0][0] if node.next_functions else None"""


@prediction
def grad_fn_chain(answers: Any) -> None:
    labels = ["the 1st name", "the 2nd name", "the 3rd name", "the 4th name"]
    check_predictions("the names along y's graph", answers, CHAIN_SNIPPET, labels,
                      "Right: walking next_functions replays the operations backwards.")


# The graph learners rebuild in exercise 01-build-the-graph, as data (`_graphs`): operations on
# the leaves a (0) and b (1). The exercise asks for its formula, which the installed course
# does not carry as code: the learner reads it off the picture.
TARGET = [["mul", 0, 1], ["add", 2, 1], ["pow", 3, 2]]


def _target(a: Tensor, b: Tensor) -> Tensor:
    return _graphs.apply(TARGET, [a, b])[-1]


def show_target() -> Any:
    """The picture of TARGET, with its leaves and output named."""
    from minigrad import viz

    from ._notebook import drawing

    if not drawing():  # the grader's worker: nobody looks at it there
        return None
    a = tensor_of(2.0, requires_grad=True)
    b = tensor_of(-1.0, requires_grad=True)
    out = _target(a, b)
    return viz.draw(out, names={a: "a", b: "b", out: "out"})


def _operations(t: Tensor) -> Counter:
    """How many times each kind of operation appears in t's graph (each node counted once)."""
    counts: Counter = Counter()
    for node in engine.topological_order([t.grad_fn] if t.grad_fn is not None else []):
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


def _graph_data(build: Callable, a_value: float, b_value: float, watched: bool = True) -> dict:
    """What the graph `build` makes from leaves a and b: its output, its operations and their
    wiring, and a.grad and b.grad after a backward."""
    a, b = tensor_of(a_value, requires_grad=True), tensor_of(b_value, requires_grad=True)
    with Watch() if watched else contextlib.nullcontext():
        out = call(build, a, b)
    if not isinstance(out, Tensor) or not out.requires_grad:
        return {"out": value_data(out)}
    found = {"out": tensor_data(out), "operations": dict(_operations(out)),
             "wiring": _wiring(out, {a: "a", b: "b"}) if out.grad_fn is not None else "a leaf"}
    call(out.backward, doing="backward() on its result")
    return {**found, "grads": [value_data(a._grad), value_data(b._grad)]}


def _build_judge(checks: Checks, case: list, got: dict) -> None:
    if "grads" not in got:
        checks.fail_now("it should return a tensor computed from a and b (so it requires "
                        "grad). Hint: return the result of operations on a and b.")
    expected = _graph_data(_target, *case, watched=False)
    which = f"for a = {case[0]:.3g}, b = {case[1]:.3g}"
    checks.expect(same_numbers(got["out"], expected["out"]),
                  f"{which}: its value differs from the pictured graph's. Hint: read the "
                  "operations in the picture from the leaves to the output.")
    checks.expect(got["operations"] == expected["operations"],
                  "its graph has other operations (or more of them) than the picture. Hint: "
                  "count the oval nodes; each operation you write adds one.")
    checks.expect(got["wiring"] == expected["wiring"],
                  "its operations are wired differently from the picture: some arrow joins "
                  "other nodes (equal values are not enough, the graph is asked). Hint: follow "
                  "each arrow in the picture: which leaf or operation feeds which operation?")
    checks.expect(all(same_numbers(mine, theirs) for mine, theirs in
                      zip(got["grads"], expected["grads"], strict=True)),
                  f"{which}: a.grad or b.grad differ from the pictured graph's after backward. "
                  "Hint: check which inputs feed each operation.")


def _build_picture(build: Callable) -> list[tuple[str, Tensor]]:
    a, b = tensor_of(2.0, requires_grad=True), tensor_of(-1.0, requires_grad=True)
    return [("your graph", build(a, b)), ("the expected graph", _target(a, b))]


build_the_graph = Exercise(
    "build(a, b)", ("build",),
    cases=lambda rng: [[2.0, -1.0], [0.5, 3.0], *(rng.normal(size=2).tolist() for _ in range(3))],
    run=lambda build, case: _graph_data(build, *case), judge=_build_judge, seed=1,
    picture=_build_picture,
    success="Your graph is the pictured one: same operations, same arrows, and the same "
            "values and grads for several a and b.")


def _breadth_first(order: list) -> bool:
    """Is `order` (nodes of one graph, each once) breadth-first from its first node: every
    other node met, along next_functions, from a node listed before it, and listed in the order
    those first meetings come? A property checked, not an order computed: the walk is the
    exercise's answer."""
    met: dict = {}  # node -> (position of the node that first meets it, slot it is met in)
    for position, node in enumerate(order):
        for slot, (child, _) in enumerate(node.next_functions):
            if child is not None and child not in met:
                met[child] = (position, slot)
    firsts = [met.get(node) for node in order[1:]]
    return None not in firsts and firsts == sorted(firsts) and all(
        first[0] < position for position, first in enumerate(firsts, start=1))


# Graphs every walk meets: a sum of products, a value used twice, a leaf, a constant, and one
# where two paths of different lengths meet (y reaches the output directly and through exp).
EXAMPLES = [
    [["leaf", [1.0, -2.0]], ["const", [0.5, 4.0]], ["leaf", 3.0], ["mul", 0, 1], ["sum", 3],
     ["add", 4, 2]],
    [["leaf", [1.0, -2.0]], ["mul", 0, 0], ["add", 1, 1], ["exp", 2], ["sum", 3]],
    [["const", 1.0]],
    [["leaf", [1.0, -2.0]]],
    [["leaf", [0.5, 1.5]], ["scale", 0, 2.0], ["exp", 1], ["add", 2, 1], ["sum", 3]],
]


def _walk_cases(rng: np.random.Generator, deep: bool = False) -> list[dict]:
    if deep:
        return [{"ops": [["leaf", 1.0], ["chain", 0, 5000 + int(rng.integers(0, 3000))]]}]
    return [{"ops": ops} for ops in EXAMPLES + [_graphs.random_ops(rng, int(rng.integers(4, 9)))
                                                  for _ in range(3)]]


def _walk_run(reachable_nodes: Callable, case: dict) -> dict:
    values, names = _graphs.build(case["ops"])
    with Watch() as watch:
        mine = call(reachable_nodes, values[-1])
    return {"nodes": _graphs.named(mine, names), "recursive": watch.recursive}


def _walk_judge(checks: Checks, case: dict, got: dict) -> None:
    values, names = _graphs.build(case["ops"])
    root = values[-1].grad_fn
    expected = [names[node] for node in engine.topological_order([root] if root else [])]
    mine = got["nodes"]
    which = f"on a graph of {len(expected)} nodes" if len(expected) < 5000 else \
        f"on a chain of {len(expected):,} nodes"
    if not checks.expect(isinstance(mine, list), f"{which}: it should return a list."):
        return
    unique_nodes = "?" not in mine and len(mine) == len(set(mine))
    checks.expect(unique_nodes, f"{which}: every item should be a node (a grad_fn), each "
                  "listed once. Hint: remember which nodes you have already visited.")
    checks.expect(unique_nodes and set(mine) == set(expected),
                  f"{which}: some reachable nodes are missing or extra. Hint: follow every "
                  "entry of next_functions, skip the None ones, and start at t.grad_fn "
                  "(a leaf has no grad_fn, so nothing is reachable from it).")
    nodes = {name: node for node, name in names.items()}
    checks.expect(lambda: unique_nodes and set(mine) == set(expected) and
                  (not mine or mine[0] == names[root]) and
                  _breadth_first([nodes[name] for name in mine]),
                  f"{which}: the nodes are not in breadth-first order. Hint: visit nodes "
                  "in the order you first meet them (a queue, not a stack).")


def _no_recursion(checks: Checks, cases: list, results: list) -> None:
    recursive = sorted({name for got in results if got for name in got.get("recursive", [])})
    checks.expect(not recursive, f"{', '.join(recursive)} calls itself: a walk "
                  "by recursion fails on graphs deeper than Python's recursion limit, whatever "
                  "the limit is set to. Hint: keep the nodes still to visit in a list.")


RECURSION = {"recursion": "write the walk with a list used as a queue instead of recursion."}
walk = Exercise(
    "reachable_nodes(t)", ("reachable_nodes",), cases=_walk_cases, run=_walk_run,
    judge=_walk_judge, finish=_no_recursion, seed=2, hints=RECURSION,
    success="reachable_nodes lists every node breadth-first, each once, on 8 graphs, "
            "without recursion.")
walk_deep = Exercise(  # a recursive walk runs out of Python's stack
    "reachable_nodes on a chain of 5,000 operations or more", ("reachable_nodes",),
    cases=lambda rng: _walk_cases(rng, deep=True), run=_walk_run, judge=_walk_judge,
    finish=_no_recursion, hints=RECURSION,
    success="reachable_nodes lists every node of a chain of 5,000 operations or more, and "
            "none of your functions called itself.")


# Lesson 01's build: the leaves one node sends gradients to directly, through AccumulateGrad.
# A case is (words, what makes the output from the leaves a, b and the untracked c, the
# leaves its node feeds, by name, known from how the output was made, not from its graph).
_FED_CASES = [
    ("a * c", lambda a, b, c: a * c, ["a"]),
    ("a + b", lambda a, b, c: a + b, ["a", "b"]),
    ("b * a", lambda a, b, c: b * a, ["b", "a"]),
    ("(a * 2) + b", lambda a, b, c: (a * 2) + b, ["b"]),
    ("a * a", lambda a, b, c: a * a, ["a", "a"]),
    ("(a * b).sin()", lambda a, b, c: (a * b).sin(), []),
    ("c - b.exp() * a", lambda a, b, c: c - b.exp() * a, []),
    ("b.exp() * a", lambda a, b, c: b.exp() * a, ["a"]),
]


def feeds_leaves(leaves_fed: Callable) -> None:
    """Lesson 01's build: `leaves_fed(t)` lists, in the order of t's inputs, the leaf tensors
    that t.grad_fn's links reach through an AccumulateGrad node (`.variable`), skipping links
    that are None or lead to another operation's node."""
    checks = Checks("leaves_fed")
    rng = np.random.default_rng(10)
    for which, make, names in _FED_CASES:
        a, b = (tensor_of(float(rng.uniform(0.5, 2.0)), requires_grad=True) for _ in range(2))
        c = tensor_of(float(rng.uniform(0.5, 2.0)))
        leaves = {"a": a, "b": b}
        t = make(a, b, c)
        with Watch():  # no reading of the check's frames or helpers
            got = checks.call(leaves_fed, t, doing=f"leaves_fed({which})", hints={
                "has no attribute 'variable'": "only an AccumulateGrad node stands for a "
                                               "leaf; the others are operations."})
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        said = [next((name for name, leaf in leaves.items() if leaf is g),
                     "a tensor that is not a, b") if isinstance(g, Tensor) else repr(g)[:40]
                for g in got]
        checks.expect(said == names,
                      f"for t = {which}, with a and b leaves that require grad and c one that "
                      f"does not: got {said or 'an empty list'}, not the leaf tensors the "
                      "links of t.grad_fn reach directly. Hint: an AccumulateGrad node knows "
                      "its leaf (.variable); a None link, or one to another operation's node, "
                      "feeds no leaf directly.")
        if checks.failures:
            break
    checks.verdict("leaves_fed finds the leaves a node feeds directly, through AccumulateGrad, "
                   f"for {len(_FED_CASES)} graphs.")
