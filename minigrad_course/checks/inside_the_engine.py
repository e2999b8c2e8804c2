"""Checks for exercises/ex11_inside_the_engine.ipynb: the topological order backward() walks,
backward by hand, and one node's step of the chain rule."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd.engine import topological_order as reference_order
from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers, show_graphs
from ._guards import Watch
from ._snippets import check_predictions


def _graphs() -> list[tuple[str, Callable[[], tuple[Tensor, list[Tensor]]]]]:
    """(description, make) where make() returns (scalar output, its leaves)."""
    def reused() -> tuple[Tensor, list[Tensor]]:  # micrograd's bug report #64
        a = Tensor(3.0, requires_grad=True)
        b = a + a
        return b + b, [a]

    def diamond() -> tuple[Tensor, list[Tensor]]:
        a = Tensor(np.array([1.0, -2.0]), requires_grad=True)
        w = Tensor(np.array([0.5, 4.0]), requires_grad=True)
        h = a * w
        return (h.exp() + h * 3).sum(), [a, w]

    def with_constants() -> tuple[Tensor, list[Tensor]]:
        x = Tensor(2.0, requires_grad=True)
        return ((x * 2 + 1) ** 2 - x) / 4, [x]

    def chain() -> tuple[Tensor, list[Tensor]]:  # deeper than Python's recursion limit
        x = Tensor(1.0, requires_grad=True)
        y = x
        for _ in range(3000):
            y = y * 1.0
        return y, [x]

    return [("b = a + a; c = b + b", reused), ("h = a * w; (exp(h) + 3h).sum()", diamond),
            ("((2x + 1)² - x) / 4", with_constants), ("a chain of 3,000 operations", chain)]


def _respects_edges(order: list) -> bool:
    position = {node: index for index, node in enumerate(order)}
    return all(position[node] < position[child] for node in order
               for child, _ in node.next_functions if child in position)


_ENGINES_ORDER = {reference_order: "the engine's topological_order"}


def _own_walk(checks: Checks, watches: list[Watch]) -> None:
    """The walk is the learner's own, without recursion."""
    called = [name for watch in watches for name in watch.called]
    if called:
        checks.fail_now(f"it calls {called[0]}, which is what the exercise asks you to write.")
    recursive = sorted({name for watch in watches for name in watch.recursive})
    checks.expect(not recursive, f"{', '.join(recursive)} calls itself: recursion "
                  "fails on graphs deeper than Python's recursion limit, whatever the limit is "
                  "set to. Hint: keep the walk's state in a list used as a stack.")


def topological(order_of: Callable) -> None:
    checks = Checks("topological_order(root)")
    watches = []
    for description, make in _graphs():
        out, _ = make()
        with Watch(_ENGINES_ORDER) as watch:
            mine = checks.call(order_of, out.grad_fn)
        watches.append(watch)
        if watch.called:
            _own_walk(checks, watches)
        expected = reference_order([out.grad_fn])
        which = f"for {description}"
        if not checks.expect(isinstance(mine, list), f"{which}: it should return a list."):
            continue
        checks.expect(len(mine) == len(expected) and set(mine) == set(expected),
                      f"{which}: it should list every reachable node exactly once. Hint: keep "
                      "a set of the nodes already visited; skip None entries.")
        if not checks.expect(functools.partial(_respects_edges, mine),
                             f"{which}: some node comes after a node it sends gradients to. "
                             "Hint: a node can be placed once all its parents are; a "
                             "depth-first post-order, reversed, does that."):
            show_graphs([(f"the graph of {description}", out)], view="backward")
    _own_walk(checks, watches)
    checks.verdict("topological_order lists every node once, each before the nodes it feeds, "
                   "on 4 graphs, with your own walk and no recursion.")



def topological_deep(order_of: Callable) -> None:
    x = Tensor(1.0, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y * 1.0
    checks = Checks("topological_order on a chain of 5,000 operations")
    with Watch(_ENGINES_ORDER) as watch:
        mine = checks.call(order_of, y.grad_fn, hints={
            "recursion": "walk the graph with an explicit stack (a list), not recursion."})
    _own_walk(checks, [watch])
    checks.expect(isinstance(mine, list) and len(mine) == 5001,
                  "it should list all 5,001 nodes.")
    checks.verdict("topological_order lists all 5,001 nodes of a deep chain, and none of your "
                   "functions called itself.")


def by_hand(backward_by_hand: Callable) -> None:
    checks = Checks("backward_by_hand(y, order)")
    recursive: set[str] = set()
    for description, make in _graphs():
        out, leaves = make()
        expected_out, expected_leaves = make()
        expected_out.backward()
        leaves[0].grad = Tensor(np.ones_like(leaves[0]._data))  # backward adds to what is there
        expected_leaves[0].grad = expected_leaves[0].grad + 1
        def order(root: Any) -> list:  # a known-good order, as the prompt promises
            return reference_order([root])

        with Watch(given=(order,)) as watch:
            checks.call(backward_by_hand, out, order, hints={
                "recursion": "loop over the nodes in topological order instead of recursing."})
        if watch.backward_runs:
            checks.fail_now(f"for {description}, it ran the engine's backward pass (backward() "
                            "or autograd.grad), which is what the exercise asks you to write. "
                            "Hint: call each node yourself, in the order given.")
        recursive.update(watch.recursive)
        for index, (leaf, wanted) in enumerate(zip(leaves, expected_leaves)):
            checks.expect(same_numbers(leaf.grad, wanted.grad),
                          f"for {description}, leaf {index + 1}'s .grad differs from what "
                          "y.backward() gives. Hint: add up every gradient that reaches a node "
                          "before running it, and add into .grad (it may already hold values).")
    checks.expect(not recursive, f"{', '.join(sorted(recursive))} calls itself. Hint: loop over "
                  "the nodes in the order given instead of recursing.")
    checks.verdict("backward_by_hand fills .grad as backward() does on 4 graphs, adding to "
                   "what .grad held, without the engine's backward pass or recursion.")


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


def one_step(answers: Any) -> None:
    labels = ["to_c", "via_c_to_a", "via_c_to_b", "a.grad"]
    check_predictions("your 4 predictions", answers, ONE_STEP_SNIPPET, labels,
                      "All 4 right: each node is one step of the chain rule, and a leaf gets "
                      "the sum over its paths.")
