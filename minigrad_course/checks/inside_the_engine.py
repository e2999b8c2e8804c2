"""Checks for lesson 11's engine and exercises/ex11_inside_the_engine.ipynb.

Lesson 11: `my_backward(root)`, the learner's own backward pass, must give what `backward()`
gives: each node run once, after all the gradients it will receive have arrived (dependency
counts, or any order that puts a node before the nodes it sends to), leaves adding into `.grad`
(a copy of the gradient the first time, as AccumulateGrad does), without recursion and without
calling `backward()` or the engine itself. Exercise 11: a topological order (one
way to meet that rule), backward by hand along it, and one node's step of the chain rule."""
from __future__ import annotations

import contextlib
import functools
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import minigrad
from minigrad.autograd import engine
from minigrad.autograd.accumulate import AccumulateGrad
from minigrad.autograd.function import BackwardFunction
from minigrad.autograd.graph import Node
from minigrad.tensor import Tensor, tensor_of

from ..integrity.watch import Watch
from . import _graphs
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, same_numbers, shown, times
from ._snippets import check_predictions

Graph = tuple[Tensor, list[Tensor]]  # a scalar output and its leaves


def known_order(root: Node) -> list[Node]:
    """A topological order of root's graph, from minigrad's engine (learners may use minigrad;
    the topological exercise refuses this very function as its answer): what backward_by_hand
    is given, and the nodes an order must list."""
    return engine.topological_order([root])


# Graphs every order and pass meets: a value reused (micrograd's bug report #64), a diamond
# of products, constants, a chain deeper than Python's recursion limit; and, drawn at each
# grading, random graphs where paths of different lengths meet, and nested diamonds.
GRAPHS = {
    "b = a + a; c = b + b": [["leaf", 3.0], ["add", 0, 0], ["add", 1, 1]],
    "h = a * w; (exp(h) + 3h).sum()": [["leaf", [1.0, -2.0]], ["leaf", [0.5, 4.0]],
                                        ["mul", 0, 1], ["exp", 2], ["scale", 2, 3.0],
                                        ["add", 3, 4], ["sum", 5]],
    "((2x + 1)² - x) / 4": [["leaf", 2.0], ["scale", 0, 2.0], ["const", 1.0], ["add", 1, 2],
                            ["mul", 3, 3], ["sub", 4, 0], ["scale", 5, 0.25]],
    "a chain of 3,000 operations": [["leaf", 1.0], ["chain", 0, 3000]],
}


def _order_cases(rng: np.random.Generator, deep: bool = False) -> list[dict]:
    if deep:
        return [{"what": "a chain of 5,000 operations or more",
                 "ops": [["leaf", 1.0], ["chain", 0, 5000 + int(rng.integers(0, 3000))]]}]
    cases = [{"what": what, "ops": ops} for what, ops in GRAPHS.items()]
    cases += [{"what": f"a random graph of {steps} operations",
               "ops": _graphs.random_ops(rng, steps)} for steps in rng.integers(4, 10, size=2)]
    count = int(rng.integers(20, 40))
    return cases + [{"what": f"{count} nested diamonds", "ops": _graphs.diamonds(count)}]


def _respects_edges(order: list) -> bool:
    position = {node: index for index, node in enumerate(order)}
    return all(position[node] < position[child] for node in order
               for child, _ in node.next_functions if child in position)


# What walks the graph for the learner: the engine's order, its count of each node's inputs
# (its keys are every node), a backward pass's (a GraphTask that notes the order it runs in).
_ENGINES_ORDER = {engine.topological_order: "the engine's topological_order",
                  engine.count_dependencies: "the engine's count_dependencies"}


def _order_run(order_of: Callable, case: dict) -> dict:
    values, names = _graphs.build(case["ops"])
    with Watch(_ENGINES_ORDER) as watch:
        mine = call(order_of, values[-1].grad_fn)
    return {"order": _graphs.named(mine, names), "called": watch.called,
            "backward_runs": watch.backward_runs, "recursive": watch.recursive}


def _order_judge(checks: Checks, case: dict, got: dict) -> None:
    values, names = _graphs.build(case["ops"])
    _own_walk(checks, [got])
    expected = [names[node] for node in known_order(values[-1].grad_fn)]
    mine, which = got["order"], f"for {case['what']}"
    if not checks.expect(isinstance(mine, list), f"{which}: it should return a list."):
        return
    checks.expect(len(mine) == len(expected) and set(mine) == set(expected),
                  f"{which}: it should list every reachable node exactly once. Hint: keep "
                  "a set of the nodes already visited; skip None entries.")
    nodes = {name: node for node, name in names.items()}
    checks.expect(lambda: len(mine) == len(expected) and set(mine) == set(expected) and
                  _respects_edges([nodes[name] for name in mine]),
                  f"{which}: some node comes after a node it sends gradients to. "
                  "Hint: a node can be placed once all its parents are; a "
                  "depth-first post-order, reversed, does that.")


def _own_walk(checks: Checks, results: list[dict]) -> None:
    """The walk is the learner's own, without recursion."""
    called = [name for got in results for name in got["called"]]
    called += ["a backward pass of the engine"] * sum(got["backward_runs"] for got in results)
    if called:
        checks.fail_now(f"it calls {called[0]}, which is what the exercise asks you to write.")


def _no_recursion(checks: Checks, cases: list, results: list) -> None:
    recursive = sorted({name for got in results if got for name in got["recursive"]})
    checks.expect(not recursive, f"{', '.join(recursive)} calls itself: recursion "
                  "fails on graphs deeper than Python's recursion limit, whatever the limit is "
                  "set to. Hint: keep the walk's state in a list used as a stack.")


topological = Exercise(
    "topological_order(root)", ("order_of",), cases=_order_cases, run=_order_run,
    judge=_order_judge, finish=_no_recursion, seed=11,
    hints={"recursion": "walk the graph with an explicit stack (a list), not recursion."},
    success="topological_order lists every node once, each before the nodes it feeds, on 7 "
            "graphs, with your own walk and no recursion.")
topological_deep = Exercise(
    "topological_order on a chain of 5,000 operations or more", ("order_of",),
    cases=lambda rng: _order_cases(rng, deep=True), run=_order_run, judge=_order_judge,
    finish=_no_recursion,
    hints={"recursion": "walk the graph with an explicit stack (a list), not recursion."},
    success="topological_order lists every node of a chain of 5,000 operations or more, and "
            "none of your functions called itself.")


def _by_hand_run(backward_by_hand: Callable, case: dict) -> dict:
    values, _ = _graphs.build(case["ops"])
    out = values[-1]
    leaves = [t for op, t in zip(case["ops"], values) if op[0] == "leaf"]
    leaves[0].grad = tensor_of(np.ones_like(leaves[0]._data))  # backward adds to what is there
    known = known_order(out.grad_fn)  # worked out before the watch starts

    def order(root: Any) -> list:  # a known-good order, as the prompt promises
        return list(known) if root is out.grad_fn else []

    calls: Counter = Counter()
    try:
        with _counting(calls) as stand_ins, Watch(given=(order, *stand_ins)) as watch:
            call(backward_by_hand, out, order)
    except TooManyRuns:
        return {"most_runs": max(calls.values()), "stopped": True}
    return {"grads": [value_data(leaf._grad) for leaf in leaves],
            "backward_runs": watch.backward_runs, "recursive": watch.recursive,
            "most_runs": max(calls.values(), default=0)}


def _by_hand_judge(checks: Checks, case: dict, got: dict) -> None:
    which = f"for {case['what']}"
    if got.get("stopped"):
        checks.fail_now(f"{which}, a node ran more than {MOST_RUNS} times, and the pass was "
                        "stopped: run each node once, after all its gradients are in, with "
                        "their sum (here a node is reached along 2 ** depth paths).")
    if got["backward_runs"]:
        checks.fail_now(f"{which}, it ran the engine's backward pass (backward(), "
                        "autograd.grad or the engine itself), which is what you are asked to "
                        "write. Hint: call each node yourself, in the order given.")
    values, _ = _graphs.build(case["ops"])
    leaves = [t for op, t in zip(case["ops"], values) if op[0] == "leaf"]
    leaves[0].grad = tensor_of(np.ones_like(leaves[0]._data))
    values[-1].backward()
    for index, (leaf, mine) in enumerate(zip(leaves, got["grads"], strict=True)):
        checks.expect(mine is None if leaf.grad is None else same_numbers(mine, leaf.grad),
                      f"{which}, leaf {index + 1}'s .grad differs from what y.backward() gives. "
                      "Hint: add up every gradient that reaches a node before running it, and "
                      "add into .grad (it may already hold values).")
    checks.expect(got["most_runs"] <= 1, f"{which}, a node ran {times(got['most_runs'])}. Hint: "
                  "call each node once, after all its gradients are in, with their sum.")


def _by_hand_recursion(checks: Checks, cases: list, results: list) -> None:
    recursive = sorted({name for got in results if got for name in got["recursive"]})
    checks.expect(not recursive, f"{', '.join(recursive)} calls itself. Hint: loop over the "
                  "nodes in the order given instead of recursing.")


by_hand = Exercise(
    "backward_by_hand(y, order)", ("backward_by_hand",), cases=_order_cases, run=_by_hand_run,
    judge=_by_hand_judge, finish=_by_hand_recursion, seed=12,
    hints={"recursion": "loop over the nodes in topological order instead of recursing."},
    success="backward_by_hand fills .grad as backward() does on 7 graphs, adding to what .grad "
            "held, each node run once, without the engine's backward pass or recursion.")


ONE_STEP_SNIPPET = """\
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(5.0, requires_grad=True)
c = a * b
d = c + a
with torch.no_grad():
    to_c, to_a = d.grad_fn(torch.tensor(1.0))
    via_c_to_a, via_c_to_b = c.grad_fn(to_c * 3)
print(to_c)
print(via_c_to_a)
print(via_c_to_b)
d.backward()
print(a.grad)"""


@prediction
def one_step(answers: Any) -> None:
    labels = ["to_c", "via_c_to_a", "via_c_to_b", "a.grad"]
    check_predictions("your 4 predictions", answers, ONE_STEP_SNIPPET, labels,
                      "All 4 right: each node is one step of the chain rule, and a leaf gets "
                      "the sum over its paths.")


# Lesson 11: the learner's backward pass ----------------------------------------------------

BACKWARD_CALLED = ("my_backward called backward() (or autograd.backward/grad): it should run "
                   "the nodes itself")
CHAIN_LENGTH = 5000  # deeper than Python's recursion limit


def _leaves(count: int, rng: np.random.Generator) -> list[Tensor]:
    return [tensor_of(rng.uniform(-1, 1, 3).astype(np.float32), requires_grad=True)
            for _ in range(count)]


def _random_graph(seed: int) -> Graph:
    """A small graph with reuse: each step combines one or two earlier values, which may be the
    same one twice, a leaf or a constant; every value made is added into the output."""
    rng = np.random.default_rng(seed)
    leaves = _leaves(3, rng)
    values = [*leaves, tensor_of(rng.uniform(-1, 1, 3).astype(np.float32))]  # and a constant
    steps: list[Callable[[Tensor, Tensor], Tensor]] = [
        lambda x, y: x + y, lambda x, y: x * y, lambda x, y: x - y,
        lambda x, _: x.tanh(), lambda x, y: x * 0.5 + y.exp()]
    for _ in range(6):
        first, second = rng.integers(len(values), size=2)
        values.append(steps[rng.integers(len(steps))](values[first], values[second]))
    out = leaves[0] * 2.0
    for value in values[len(leaves) + 1:]:
        out = out + value
    return out.sum(), leaves


def _lesson_graphs() -> list[tuple[str, Callable[[], Graph], bool]]:
    """(description, make, whether the leaves' .grad already hold ones before the pass)."""
    def diamond() -> Graph:
        a = minigrad.tensor(3.0, requires_grad=True)
        b = a + a
        return b * b, [a]

    def reused() -> Graph:  # micrograd's bug report #64
        a = minigrad.tensor(3.0, requires_grad=True)
        b = a + a
        return b + b, [a]

    def with_constants() -> Graph:  # x * 2 and ** 2: nodes whose call returns one tensor
        x = minigrad.tensor(2.0, requires_grad=True)
        return ((x * 2 + 1) ** 2 - x) / 4, [x]

    def shared_product() -> Graph:
        a, w = _leaves(2, np.random.default_rng(0))
        h = a * w
        return (h.exp() + h * 3).sum(), [a, w]

    def one_gradient_for_two() -> Graph:  # AddBackward0 sends both leaves the same tensor
        a, c = _leaves(2, np.random.default_rng(1))
        return (a + c).sum(), [a, c]

    graphs = [("the diamond b = a + a; c = b * b", diamond, False),
              ("b = a + a; c = b + b", reused, False),
              ("((2x + 1)² - x) / 4", with_constants, False),
              ("h = a * w; (exp(h) + 3h).sum(), with .grad already holding ones",
               shared_product, True),
              ("(a + c).sum(), where both leaves receive one and the same gradient",
               one_gradient_for_two, False)]
    graphs += [(f"random graph {seed}" + (", with .grad already holding ones" if seed % 2 else ""),
                functools.partial(_random_graph, seed), bool(seed % 2)) for seed in range(1, 6)]
    return graphs


def _prepared(make: Callable[[], Graph], grad_there: bool) -> Graph:
    out, leaves = make()
    if grad_there:
        for leaf in leaves:
            leaf.grad = tensor_of(np.ones_like(leaf._data))
    return out, leaves


def _wrong_grad(description: str, wrong: tuple, grad_there: bool) -> str:
    index, mine, theirs = wrong
    hint = ("a leaf's .grad may already hold a gradient: add yours to it." if grad_there else
            "a node runs once, with the sum of every gradient sent to it, and only when all of "
            "them have arrived.")
    return (f"for {description}, leaf {index + 1}'s .grad is {shown(mine)}; backward() gives "
            f"{shown(theirs)}. Hint: {hint}")


MOST_RUNS = 64  # runs of one node after which a by-hand pass is stopped


class TooManyRuns(BaseException):  # not an Exception: the learner's `except` lets it through
    """A node ran far more often than once: the pass would take forever (nested diamonds)."""


def _counted(apply: Callable, calls: Counter, most: int | None = None) -> Callable:
    def counted_apply(node: Any, *grads: Any) -> Any:
        calls[node] += 1
        if most is not None and calls[node] > most:
            raise TooManyRuns(f"a node ran more than {most} times")
        return apply(node, *grads)
    return counted_apply


@contextlib.contextmanager
def _counting(calls: Counter) -> Iterator[tuple]:
    """While the learner's pass runs, count how often each node runs (its `apply`, which
    `node(grad)` calls too), and stop a pass that runs one node many times over. Yields the
    stand-ins, which a `Watch` must allow."""
    patched = [(BackwardFunction, "apply", _counted(BackwardFunction.apply, calls, MOST_RUNS)),
               (AccumulateGrad, "apply", _counted(AccumulateGrad.apply, calls, MOST_RUNS))]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patched]
    try:
        for owner, name, replacement in patched:
            setattr(owner, name, replacement)
        yield tuple(replacement for _, _, replacement in patched)
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


@contextlib.contextmanager
def _watching(calls: Counter) -> Iterator[tuple]:
    """While the learner's pass runs, count how often each node runs (its `apply`, which
    `node(grad)` calls too), and make `backward()` refuse to run: the pass is theirs to write.
    Yields these stand-ins, which the learner's code calls and a `Watch` must allow.
    Everything is put back after."""
    def refused(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError(BACKWARD_CALLED)

    patched = [(BackwardFunction, "apply", _counted(BackwardFunction.apply, calls)),
               (AccumulateGrad, "apply", _counted(AccumulateGrad.apply, calls)),
               (Tensor, "backward", refused),
               (minigrad.autograd, "backward", refused), (minigrad.autograd, "grad", refused)]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patched]
    try:
        for owner, name, replacement in patched:
            setattr(owner, name, replacement)
        yield tuple(replacement for _, _, replacement in patched)
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


def _own_pass(checks: Checks, watch: Watch, where: str, hint: str) -> None:
    """The learner's code ran no backward pass of the engine's: that pass is theirs to write."""
    if watch.backward_runs:
        checks.fail_now(f"{where}, it ran the engine's backward pass (backward(), autograd.grad "
                        "or the engine itself), which is what you are asked to write. "
                        f"Hint: {hint}")


OWN_PASS_HINT = "call each node yourself, node(grad), and add into the leaves' .grad."
RECURSION_HINT = "walk the graph with a stack or a queue (a list), not recursion."


def _own_grads(leaves: list[Tensor]) -> bool:
    """Every leaf's .grad is its own writable tensor, as backward() leaves it."""
    grads = [leaf.grad._data for leaf in leaves if leaf.grad is not None]
    shared = any(np.shares_memory(g, h) for i, g in enumerate(grads) for h in grads[i + 1:])
    return all(g.flags.writeable for g in grads) and not shared


def backward_pass(my_backward: Callable) -> None:
    """Lesson 11: `my_backward(root)` leaves in `.grad` what `root.backward()` leaves, running
    each node once, on graphs with reuse and on a chain deeper than the recursion limit."""
    checks = Checks("my_backward(root)")
    hints = {"recursion": RECURSION_HINT, "should run the nodes itself": OWN_PASS_HINT}
    graphs = _lesson_graphs()
    expected = []
    for _, make, grad_there in graphs:
        out, leaves = _prepared(make, grad_there)
        out.backward()
        expected.append([leaf.grad for leaf in leaves])
    calls: Counter = Counter()
    recursive: set[str] = set()  # a raised recursion limit hides it from a result, not a Watch
    for (description, make, grad_there), wanted in zip(graphs, expected):
        out, leaves = _prepared(make, grad_there)
        calls.clear()
        with _watching(calls) as stand_ins, Watch(given=stand_ins) as watch:
            checks.call(my_backward, out, hints=hints, doing=f"my_backward on {description}")
        _own_pass(checks, watch, f"on {description}", OWN_PASS_HINT)
        recursive.update(watch.recursive)
        wrong = [(index, leaf.grad, grad) for index, (leaf, grad) in enumerate(zip(leaves, wanted))
                 if not (leaf.grad is grad is None or same_numbers(leaf.grad, grad))]
        checks.expect(not wrong, _wrong_grad(description, wrong[0], grad_there) if wrong else "")
        checks.expect(all(leaf.grad is None or not leaf.grad.requires_grad for leaf in leaves),
                      f"for {description}, a leaf's .grad requires grad, so it recorded a graph. "
                      "Hint: call the nodes under torch.no_grad().")
        most = max(calls.values(), default=0)
        checks.expect(most <= 1, f"for {description}, a node ran {times(most)}. Hint: call "
                      "each node once, after all its gradients are in, with their sum.")
        checks.expect(functools.partial(_own_grads, leaves),
                      f"for {description}, a leaf's .grad is the gradient tensor the pass sent "
                      "it (read-only, or the very one another leaf got). Hint: store a copy, "
                      "buffer.clone(), when .grad is None, as AccumulateGrad does.")

    root = leaf = minigrad.tensor(1.0, requires_grad=True)
    for _ in range(CHAIN_LENGTH):
        root = root * 1.0
    with _watching(calls) as stand_ins, Watch(given=stand_ins) as watch:
        checks.call(my_backward, root, hints=hints,
                    doing=f"my_backward on a chain of {CHAIN_LENGTH:,} multiplications")
    _own_pass(checks, watch, f"on a chain of {CHAIN_LENGTH:,} multiplications", OWN_PASS_HINT)
    recursive.update(watch.recursive)
    checks.expect(not recursive, f"your function {min(recursive, default='')}() calls itself. "
                  f"Hint: {RECURSION_HINT}")
    checks.expect(same_numbers(leaf.grad, 1.0),
                  f"on a chain of {CHAIN_LENGTH:,} multiplications by 1, the leaf's .grad is "
                  f"{shown(leaf.grad)}; backward() gives 1.")
    checks.verdict(f"my_backward leaves what backward() leaves on {len(graphs)} graphs with "
                   f"reuse (24 on the diamond), runs each node once, and handles a chain of "
                   f"{CHAIN_LENGTH:,} operations.")
