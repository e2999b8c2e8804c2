"""The backward pass. `run_backward` makes a `GraphTask`, which holds one pass: a gradient buffer
per node, how many gradients each node still waits for, and the nodes ready to run.
`GraphTask.run` is the algorithm: run each node once, after every node that sends it a
gradient, with the sum of what it received.

No recursion: the graph is walked with explicit stacks and a queue, so a chain of a million
operations is as fine as a chain of three."""
from __future__ import annotations

import heapq
import itertools
import threading
from typing import Any, Iterator, Sequence

import numpy as np

from .. import _grad_mode
from ..tensor import Tensor
from . import anomaly, observe
from .accumulate import grad_accumulator
from .function import _run_quietly
from .graph import Node, num_outputs
from .node_call import (call_post_hooks, call_pre_hooks, call_tensor_hooks, materialize,
                        validate)


class _Running(threading.local):
    task: GraphTask | None = None


# The backward pass this thread is running, if any: a saved tensor unpacked by a checkpoint
# (utils/checkpoint.py) is recomputed once per pass, as PyTorch's graph task id says.
running = _Running()


def run_backward(roots: Sequence[Any], grad_roots: Sequence[Any], retain_graph: bool,
                 create_graph: bool, inputs: Sequence[Any] | None = None,
                 accumulate: bool = True) -> list[Any] | None:
    """Backpropagate `grad_roots` from the tensors `roots` into the leaves' `.grad`. With
    `inputs`, only towards those tensors; without `accumulate` (that is `autograd.grad`), no
    `.grad` changes and the gradients that reach `inputs` are returned instead."""
    if inputs is None:
        task = GraphTask(roots, grad_roots, retain_graph, create_graph)
    else:
        task = CapturingTask(roots, grad_roots, retain_graph, create_graph, inputs, accumulate)
    outer, running.task = running.task, task  # a backward may run inside another's node
    try:
        task.run()
    finally:
        running.task = outer
    return None if accumulate else task.captured


class GraphTask:
    """One backward pass from `roots`, which start with the gradients `grad_roots`."""

    def __init__(self, roots: Sequence[Any], grad_roots: Sequence[Any], retain_graph: bool,
                 create_graph: bool) -> None:
        self.retain_graph, self.create_graph = retain_graph, create_graph
        # Without a graph of the backward to build, gradients travel as numpy arrays: a node
        # with nothing to show them to (no hook, no retained .grad) makes no tensor at all.
        # Anomaly mode wraps how a node runs, for this pass only (the loop does not know), and
        # sees every gradient as a tensor.
        self.on_arrays = not create_graph
        if anomaly.state.enabled:
            self.run_node, self.on_arrays = anomaly.checking(self.run_node), False
        if not self.on_arrays:
            grad_roots = as_tensors(grad_roots)
        root_edges = [edge_of(t) for t in roots]
        self.root_nodes = list(dict.fromkeys(node for node, _ in root_edges))
        self.dependencies = count_dependencies(self.root_nodes)  # gradients still to come
        self.buffers: dict[Node, list] = {}  # per node, the sum of what reached each output
        self.ready: list[tuple[float, int, Node]] = []  # a heap: see push_ready
        self.arrival = itertools.count()
        for (node, nr), grad in zip(root_edges, grad_roots):
            self.add_gradient(node, nr, grad)
        for node in self.root_nodes:
            if self.dependencies[node] == 0:
                self.push_ready(node)
        if observe.watching() and observe.starting(self, roots):  # observers hear of the
            self.on_arrays = False  # pass, and may follow its steps: then as tensors
            for slots in self.buffers.values():
                slots[:] = as_tensors(slots)

    def run(self) -> None:
        """Run every node once, after all the nodes that send it a gradient."""
        ready, buffers, dependencies = self.ready, self.buffers, self.dependencies
        with _grad_mode.set_grad_enabled(self.create_graph):  # record backward's own ops?
            while ready:
                node = heapq.heappop(ready)[2]  # of the nodes ready, the one created last
                grads = buffers.pop(node, None)  # what reached it, summed over paths
                if grads is None:  # nothing did: it has nothing to send
                    grad_inputs = (None,) * len(node._next_functions)
                else:
                    grad_inputs = self.run_node(node, grads)
                if node._saved is not None and not self.retain_graph:
                    self.release(node)
                for (child, nr), grad in zip(node._next_functions, grad_inputs):
                    if child is None:  # an input that needs no gradient
                        continue
                    if grad is not None:
                        self.add_gradient(child, nr, grad)
                    dependencies[child] -= 1
                    if dependencies[child] == 0:  # everything it waited for is in
                        self.push_ready(child)

    def release(self, node: Node) -> None:
        """Once a node has run, what it saved is dropped (without retain_graph): memory comes
        back during the backward pass, and a second backward raises ERR_BACKWARD_TWICE."""
        node._saved, node._freed = None, True

    def push_ready(self, node: Node) -> None:
        """Of the nodes whose gradients are all in, the one created last runs first: PyTorch's
        ready queue is ordered by creation number, so hooks and prints see PyTorch's order.
        An AccumulateGrad's number is infinity: it runs as soon as it is ready. The arrival
        count breaks ties, in the order nodes became ready."""
        heapq.heappush(self.ready, (-node._sequence_nr, next(self.arrival), node))

    def add_gradient(self, node: Node, nr: int, grad: Any) -> None:
        """Gradients that reach the same output of `node` along different paths are added up.
        (An AccumulateGrad has no outputs of its own: its one slot is the leaf's.)"""
        slots = self.buffers.get(node)
        if slots is None:
            slots = self.buffers[node] = [None] * max(nr + 1, num_outputs(node))
        slots[nr] = grad if slots[nr] is None else sum_of_gradients(slots[nr], grad)

    def run_node(self, node: Node, grads: list) -> tuple:
        """The tensors' hooks, then the node itself; one gradient per `next_functions` entry.
        A node with no hooks, in a pass on arrays, runs its formula on arrays straight away."""
        if self.on_arrays and not node._has_hooks:
            if len(grads) > 1:  # only a node with several outputs can have one without gradient
                grads = materialize(node, grads)
            return validate(node, node.apply_to_arrays(grads))
        if node._tensor_hooks or node._retained:
            grads = call_tensor_hooks(node, as_tensors(grads))
        return self.call_function(node, grads)

    def call_function(self, node: Node, grads: list) -> tuple:
        """The node's hooks and its backward: the one way every node runs. On arrays when
        the pass carries arrays and no node hook is there to see them."""
        if self.on_arrays and not (node._pre_hooks or node._post_hooks):
            if len(grads) > 1:
                grads = materialize(node, grads)
            return validate(node, node.apply_to_arrays(grads))
        grads = as_tensors(grads)
        if node._pre_hooks:
            grads = call_pre_hooks(node, grads)
            if all(g is None for g in grads):  # the hooks took every gradient away
                return (None,) * len(node.next_functions)
        if len(grads) > 1:  # only a node with several outputs can have one without gradient
            grads = materialize(node, grads)
        grad_inputs = validate(node, node.apply(*grads))
        if node._post_hooks:
            grad_inputs = call_post_hooks(node, grad_inputs, grads)
        return grad_inputs


class CapturingTask(GraphTask):
    """A pass with `inputs=`: gradients are wanted at those tensors only. The gradient that
    reaches each is captured (what `autograd.grad` returns), and only the nodes that lead to one
    run. With `accumulate` (`backward(inputs=...)`) their `.grad` is filled; without, none is."""

    def __init__(self, roots: Sequence[Any], grad_roots: Sequence[Any], retain_graph: bool,
                 create_graph: bool, inputs: Sequence[Any], accumulate: bool) -> None:
        super().__init__(roots, grad_roots, retain_graph, create_graph)
        self.accumulate = accumulate
        self.captures: dict[tuple, list[int]] = {}  # edge -> its positions in `inputs`
        for i, t in enumerate(inputs):
            self.captures.setdefault(edge_of(t), []).append(i)
        self.captured: list[Any] = [None] * len(inputs)
        self.targets = targets = {node for node, _ in self.captures}
        # Which nodes must run: those that lead to a target, and, when .grad is to be filled,
        # the targets themselves (as in PyTorch). Children first, so each answer is ready.
        self.needed: dict[Node, bool] = {}
        for node in reversed(topological_order(self.root_nodes)):
            leads_to_target = any(child is not None and (child in targets or self.needed[child])
                                  for child, _ in node.next_functions)
            self.needed[node] = leads_to_target or (accumulate and node in targets)

    def run_node(self, node: Node, grads: list) -> tuple:
        """As GraphTask's, with the capture between the tensors' hooks and the node itself
        (PyTorch's order), and nothing run for a node that leads to no input."""
        nothing = (None,) * len(node.next_functions)
        if not (self.needed[node] or node in self.targets):
            return nothing  # it leads to no input: as if it were not in the graph
        if node._tensor_hooks or node._retained:
            grads = call_tensor_hooks(node, as_tensors(grads))
        for nr, grad in enumerate(grads):
            captured = as_tensors([grad])[0]  # (one tensor, should inputs name it twice)
            for i in self.captures.get((node, nr), ()):
                self.captured[i] = captured
        return self.call_function(node, grads) if self.needed[node] else nothing

    def release(self, node: Node) -> None:
        """A node that leads to no input never ran: it keeps what it saved, as in PyTorch,
        for a later backward through it."""
        if self.needed[node]:
            super().release(node)


def sum_of_gradients(total: Any, grad: Any) -> Any:
    """PyTorch adds a further gradient into the buffer in place (out of place when building a
    graph): the sum's version is then 1, which a leaf's new .grad shows
    (accumulate._version_of_new_grad). Without a graph, the sum of two gradients of one dtype
    is numpy's, made a tensor for its version."""
    if not _grad_mode.state.enabled:
        a = total._data if type(total) is Tensor else total
        b = grad._data if type(grad) is Tensor else grad
        if a.dtype == b.dtype:
            total = Tensor(np.asarray(_run_quietly(np.add, a, b), dtype=a.dtype))
        else:
            total = as_tensors([total])[0] + as_tensors([grad])[0]
        total._bump_version()
        return total
    return total + grad


def as_tensors(grads: Any) -> list:
    """Gradients as tensors, for what shows them to the learner: hooks, retained and captured
    gradients, a node's formula on tensors. (A pass that builds no graph carries them as
    numpy arrays.)"""
    return [g if g is None or isinstance(g, Tensor) else Tensor(np.asarray(g)) for g in grads]


def edge_of(t: Any) -> tuple[Node, int]:
    """Where the gradient of tensor `t` goes: the output of the node that made it, or the
    AccumulateGrad of a leaf."""
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    return (grad_accumulator(t), 0)


def count_dependencies(roots: list[Node]) -> dict[Node, int]:
    """How many edges lead into each node reachable from `roots`: a node runs once all of
    them have delivered. One walk with an explicit stack, so any depth is fine."""
    counts = dict.fromkeys(roots, 0)
    stack = list(counts)
    while stack:
        for child, _ in stack.pop()._next_functions:
            if child is None:
                continue
            if child in counts:
                counts[child] += 1
            else:
                counts[child] = 1
                stack.append(child)
    return counts


def topological_order(roots: Sequence[Node]) -> list[Node]:
    """Every node reachable from `roots`, each before all the nodes it sends gradients to."""
    order: list[Node] = []
    visited: set[Node] = set()
    for root in roots:
        if root in visited:
            continue
        visited.add(root)
        stack: list[tuple[Node, Iterator]] = [(root, iter(root.next_functions))]
        while stack:  # depth-first, children before parents: a post-order
            node, children = stack[-1]
            for child, _ in children:
                if child is not None and child not in visited:
                    visited.add(child)
                    stack.append((child, iter(child.next_functions)))
                    break
            else:
                stack.pop()
                order.append(node)
    order.reverse()
    return order
