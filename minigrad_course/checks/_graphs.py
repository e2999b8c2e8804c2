"""Graphs as data, for checks that hand the learner a graph (a walk, a topological order, a
backward pass by hand): a list of operations that the learner's process and the judge each build
with minigrad, naming every node the same way on both sides, so that a learner's list of nodes
travels as a list of names.

An operation is ["leaf", values], ["const", values], ["add", i, j], ["sub", i, j], ["mul", i, j],
["scale", i, c], ["pow", i, n], ["exp", i], ["tanh", i], ["sum", i] or ["chain", i, n] (n
multiplications by 1), where i and j index earlier operations; the last one is the output.
Node k is "n{k}" (the grad_fn of operation k's result), a leaf's AccumulateGrad is "leaf{k}"."""
from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.accumulate import grad_accumulator
from minigrad.tensor import Tensor, tensor_of

Ops = list[list]


def build(ops: Ops) -> tuple[list[Tensor], dict[Any, str]]:
    """The tensors of each operation, and every node's name."""
    values = apply(ops)
    names: dict[Any, str] = {}
    for index, (op, t) in enumerate(zip(ops, values)):
        if op[0] == "leaf":
            names[grad_accumulator(t)] = f"leaf{index}"
        elif t.grad_fn is not None and t.grad_fn not in names:
            names[t.grad_fn] = f"n{index}"
    for index, op in enumerate(ops):  # every link of a chain has a name too
        node, depth = values[index].grad_fn if op[0] == "chain" else None, 0
        while node is not None and node.next_functions:
            node, depth = node.next_functions[0][0], depth + 1
            if node is None or node in names:
                break
            names[node] = f"n{index}.{depth}"
    return values, names


def apply(ops: Ops, values: list[Tensor] | None = None) -> list[Tensor]:
    """`values` (none by default) and the tensor of each operation after them, in order (an
    operation's indices count `values` first)."""
    values = list(values or [])
    for op in ops:
        kind, args = op[0], op[1:]
        if kind in ("leaf", "const"):
            values.append(tensor_of(np.array(args[0], dtype=float), requires_grad=kind == "leaf"))
            continue
        x = values[args[0]]
        if kind == "chain":
            for _ in range(args[1]):
                x = x * 1.0
            values.append(x)
            continue
        other = values[args[1]] if kind in ("add", "sub", "mul") else None
        values.append({"add": lambda: x + other, "sub": lambda: x - other,
                       "mul": lambda: x * other, "scale": lambda: x * float(args[1]),
                       "pow": lambda: x ** args[1], "exp": x.exp, "tanh": x.tanh,
                       "sum": x.sum}[kind]())
    return values


def named(items: Any, names: dict[Any, str]) -> Any:
    """A learner's list of nodes as a list of names ("?" for what is no node of the graph)."""
    if type(items) is not list:
        from ._data import value_data

        return {"not_a_list": value_data(items)}
    found = []
    for item in items:
        try:
            found.append(names.get(item, "?"))
        except TypeError:  # unhashable
            found.append("?")
    return found


def random_ops(rng: np.random.Generator, steps: int) -> Ops:
    """A graph with reuse: three leaves and a constant, then `steps` operations on earlier
    values (often an old one: paths of different lengths meet), all summed into the output."""
    ops: Ops = [["leaf", rng.uniform(-1, 1, 3).round(3).tolist()] for _ in range(3)]
    ops.append(["const", rng.uniform(-1, 1, 3).round(3).tolist()])
    for step in range(steps):
        first, second = (int(i) for i in rng.integers(len(ops), size=2))
        if step == 0:  # the first operation (which the output always sums) reads a leaf:
            first = int(rng.integers(3))  # else, now and then, nothing required grad
        kind = ["add", "mul", "sub", "exp", "tanh", "scale"][int(rng.integers(6))]
        ops.append([kind, first, second] if kind in ("add", "mul", "sub") else
                   [kind, first, 0.5] if kind == "scale" else [kind, first])
    total = len(ops) - 1
    for index in range(4, len(ops) - 1):
        ops.append(["add", total, index])
        total = len(ops) - 1
    ops.append(["sum", total])
    return ops


def diamonds(count: int) -> Ops:
    """`count` nested diamonds, each value used twice by the next: 2**count paths from the
    output to the leaf, through 3 * count + 2 nodes. A pass that runs a node once per path
    (pushing each gradient on as it arrives) never finishes."""
    ops: Ops = [["leaf", [0.5, -0.25]]]
    for _ in range(count):
        x = len(ops) - 1
        ops += [["tanh", x], ["scale", x, 0.5], ["add", x + 1, x + 2]]
    ops.append(["sum", len(ops) - 1])
    return ops


def reaches(root: Any, nodes: set, limit: int = 10_000) -> bool:
    """Does the graph of the tensor `root` contain one of `nodes` (grad_fn objects)? A walk
    with a list, at most `limit` nodes: enough for the small graphs checks build."""
    start = getattr(root, "grad_fn", None)
    stack, seen = ([start] if start is not None else []), set()
    while stack and len(seen) < limit:
        node = stack.pop()
        if node in nodes:
            return True
        if node in seen:
            continue
        seen.add(node)
        stack.extend(child for child, _ in node.next_functions if child is not None)
    return False
