"""The backward pass. `backward()` starts one: a `GraphTask` holds it, with a gradient buffer
per node, how many gradients each node still waits for, and the nodes ready to run.
`GraphTask.run` is the algorithm: run each node once, after every node that sends it a
gradient, with the sum of what it received.

A plain pass (`loss.backward()` without hooks, anomaly mode, a graph of the backward to build,
`inputs=` or anyone watching) runs in this file alone, from `tensor_backward` to a leaf's `.grad`
(accumulate_into): the loop, and each node's formula on numpy arrays. What only some passes
need branches out to the functions that exist for it: the caller's arguments checked
(`backward`), hooks, retained grads and gradients shown as tensors (`run_node_in_full`,
node_call.py), several outputs, custom Functions' formulas on tensors (function.py), a
broadcast gradient summed back or cast (`node_call.validate`), `inputs=` and `autograd.grad`
(`CapturingTask`), anomaly mode (anomaly.py), observers (observe.py).

No recursion: the graph is walked with explicit stacks and a queue, so a chain of a million
operations is as fine as a chain of three."""
from __future__ import annotations

import heapq
import itertools
import threading
from typing import Any, Container, Iterator, Sequence

import numpy as np

from .. import _grad_mode
from .._handles import seen
from ..tensor import Tensor, tensor_of
from . import anomaly, observe
from .accumulate import AccumulateGrad, accumulate_into, grad_accumulator, warn_grad_cycle
from .graph import Node
from .node_call import (arrays_fitted, call_post_hooks, call_pre_hooks, call_tensor_hooks,
                        materialize, validate)
from .numpy_quiet import _QUIET, _numpy_errors


class _Running(threading.local):
    task: GraphTask | None = None


# The backward pass this thread is running, if any: a saved tensor unpacked by a checkpoint
# (utils/checkpoint.py) is recomputed once per pass, as PyTorch's graph task id says.
running = _Running()


def tensor_backward(self: Tensor, gradient: Any = None, retain_graph: bool | None = None,
                    create_graph: bool = False, inputs: Any = None) -> None:
    """Add the gradient of this tensor into the leaves' `.grad` (`torch.autograd.backward`)."""
    data = self._data
    if (gradient is None and inputs is None and not create_graph and self.grad_fn is not None
            and data.size == 1 and data.dtype.kind == "f"):
        # `loss.backward()`: one scalar made by an operation starts from 1 (an array: see
        # GraphTask.on_arrays), with nothing of the caller's to check
        GraphTask((self,), [np.ones(data.shape, data.dtype)], bool(retain_graph), False).run()
    else:
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)


tensor_backward.__qualname__ = "Tensor.backward"  # (Python's own errors name it so)


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    """Accumulate into `.grad` of the leaves (or of `inputs`) the gradient of `tensors`."""
    # PyTorch's order of checks: empty inputs, each output's starting gradient, outputs that
    # do not require grad, inputs that do not. `inputs` is read once, as PyTorch's tuple()
    # does: a generator given as inputs is used, not emptied by a first look.
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    outputs = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) or (None,) * len(outputs)
    start = _make_grads(outputs, grads)
    _check_outputs(outputs, start)
    if inputs is not None:
        # Each input in turn keeps its .grad as retain_grad() does, with its check: PyTorch
        # calls retain_grad() on every input, a leaf's included, so that is the error's wording.
        for t in inputs:
            if not t.requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            if t.grad_fn is not None:
                t.retain_grad()
    if create_graph:
        warn_grad_cycle()
    run_backward(outputs, start,
                 retain_graph=create_graph if retain_graph is None else retain_graph,
                 create_graph=create_graph, inputs=inputs, accumulate=True)


def _as_tuple(x: Any) -> tuple:
    """A tensor as a tuple of one, None as (), any other iterable as its items; anything else
    fails as PyTorch's tuple() does ('float' object is not iterable)."""
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _make_grads(outputs: Sequence[Any], grad_outputs: Sequence[Any]) -> list[Any]:
    """The gradient each output starts from: 1 for a scalar, else what the caller gave."""
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(out, Tensor):
            raise AssertionError("Expected output to be a torch.Tensor")
        if g is None and not out.requires_grad:  # the engine's check names it, next
            grads.append(None)
            continue
        if g is None:
            if out._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._data.dtype.kind != "f" and not out.dtype.is_floating_point:
                raise RuntimeError("grad can be implicitly created only for real scalar outputs "
                                   f"but got {out.dtype}")
            g = np.ones(out._data.shape, out._data.dtype)  # the engine makes it a tensor if shown
        elif not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        elif g.shape != out.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                               f"output[{i}] has a shape of {out.shape}.")
        elif g.dtype is not out.dtype:  # PyTorch's engine casts it to the output's dtype
            g = g.to(out.dtype)
        grads.append(g)
    return grads


def _check_outputs(outputs: Sequence[Any], grads: list[Any]) -> None:
    """One starting gradient per output (extra ones are ignored, as in PyTorch), and every
    output part of a graph."""
    if len(grads) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have "
                               "a grad_fn")


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
    task.run()
    return None if accumulate else task.captured


class GraphTask:
    """One backward pass from `roots`, which start with the gradients `grad_roots`. Once a
    node has run, what it saved is dropped (without retain_graph): memory comes back during
    the pass, and a second backward raises ERR_BACKWARD_TWICE."""

    kept: Container[Node] = frozenset()  # nodes that keep what they saved: see CapturingTask

    def __init__(self, roots: Sequence[Any], grad_roots: Sequence[Any], retain_graph: bool,
                 create_graph: bool) -> None:
        self.retain_graph, self.create_graph = retain_graph, create_graph
        # Without a graph of the backward to build, gradients travel as numpy arrays: a node
        # with nothing to show them to (no hook, no retained .grad) makes no tensor at all.
        # Anomaly mode wraps how a node runs, for this pass only (the loop does not know), and
        # sees every gradient as a tensor.
        self.on_arrays = not create_graph
        if seen.hooks:  # some node has had a hook: each is asked whether it has one
            self.run_node = self.run_node_minding_hooks
        if anomaly.state.enabled:
            self.run_node, self.on_arrays = anomaly.checking(self.run_node), False
        if not self.on_arrays:
            grad_roots = as_tensors(grad_roots)
        root_edges, root_nodes = [], {}
        for t in roots:  # where each root's gradient goes (edge_of, inline for a non-leaf)
            edge = (t.grad_fn, t._output_nr) if t.grad_fn is not None else edge_of(t)
            root_edges.append(edge)
            root_nodes[edge[0]] = None
        self.root_nodes = list(root_nodes)
        self.dependencies = count_dependencies(self.root_nodes)  # gradients still to come
        self.buffers: dict[Node, list] = {}  # per node, the sum of what reached each output
        # The nodes whose gradients are all in, a heap: the one created last runs first, as
        # PyTorch's ready queue is ordered by creation number, so hooks and prints see
        # PyTorch's order. An AccumulateGrad's number is infinity: it runs as soon as it is
        # ready. The arrival count breaks ties, in the order nodes became ready.
        self.ready: list[tuple[float, int, Node]] = []
        self.arrival = itertools.count()
        for (node, output_nr), grad in zip(root_edges, grad_roots):
            self.add_gradient(node, output_nr, grad)
        for node in self.root_nodes:
            if self.dependencies[node] == 0:
                heapq.heappush(self.ready, (-node._sequence_nr, next(self.arrival), node))
        # Observers hear of the pass, and may follow its steps: then as tensors. (The lists
        # themselves, not observe.watching(): a call per pass less when nobody watches.)
        if (observe._observers or observe._pass_observers) and observe.starting(self, roots):
            self.on_arrays = False
            for slots in self.buffers.values():
                slots[:] = as_tensors(slots)

    def run(self) -> None:
        """Run every node once, after all the nodes that send it a gradient."""
        ready, buffers, dependencies = self.ready, self.buffers, self.dependencies
        mode = _grad_mode.state  # grad mode is create_graph's while the pass runs, numpy quiet
        outside = running.task, mode.enabled, mode.grad_in_inference
        self.numpy_outside, quiet = _numpy_errors.get(), _numpy_errors.set(_QUIET)
        running.task = self
        if mode.inference:  # (inference mode keeps grad mode apart: _grad_mode.py)
            mode.grad_in_inference = self.create_graph
        else:
            mode.enabled = self.create_graph
        try:
            while ready:
                node = heapq.heappop(ready)[2]  # of the nodes ready, the one created last
                grads = buffers.pop(node, None)  # what reached it, summed over paths
                if grads is None:  # nothing did: it has nothing to send
                    grad_inputs = (None,) * len(node._next_functions)
                else:
                    grad_inputs = self.run_node(node, grads)
                if node._saved is not None and not self.retain_graph and node not in self.kept:
                    node._saved, node._freed = None, True  # what it saved goes (notebook 09)
                for (child, output_nr), grad in zip(node._next_functions, grad_inputs):
                    if child is None:  # an input that needs no gradient
                        continue
                    if grad is not None:
                        self.add_gradient(child, output_nr, grad)
                    dependencies[child] -= 1
                    if dependencies[child] == 0:  # everything it waited for is in
                        heapq.heappush(ready, (-child._sequence_nr, next(self.arrival), child))
        finally:
            running.task, mode.enabled, mode.grad_in_inference = outside
            _numpy_errors.reset(quiet)

    def add_gradient(self, node: Node, output_nr: int, grad: Any) -> None:
        """Gradients that reach the same output of `node` along different paths are added up.
        PyTorch adds a further one into the buffer in place (out of place when building a
        graph): the sum's version is then 1, which a leaf's new .grad shows (accumulate_into).
        A node has a slot per output; an AccumulateGrad has one, its leaf's."""
        slots = self.buffers.get(node)
        if slots is None:  # the first gradient to reach it
            outputs = node._output_meta  # (kept for a node with several outputs only)
            if outputs is None:
                self.buffers[node] = [grad]
                return
            slots = self.buffers[node] = [None] * len(outputs)
        total = slots[output_nr]
        if total is None:
            slots[output_nr] = grad
        elif ((type(total) is Tensor and "_efficient_zero" in total.__dict__)
              or (type(grad) is Tensor and "_efficient_zero" in grad.__dict__)):  # (inline:
            slots[output_nr] = _with_efficient_zero(total, grad)  # a call here: every sum's)
        elif _grad_mode.state.enabled:  # building a graph of the backward: a recorded sum
            slots[output_nr] = total + grad
        else:  # numpy's sum, made a tensor for its version
            a = total._data if type(total) is Tensor else total
            b = grad._data if type(grad) is Tensor else grad
            if a.dtype == b.dtype:
                total = tensor_of(np.asarray(np.add(a, b), dtype=a.dtype))
            else:
                total = as_tensors([total])[0] + as_tensors([grad])[0]
            total._bump_version()
            slots[output_nr] = total

    def run_node(self, node: Node, grads: list) -> tuple:
        """A node's turn in a plain pass: its formula on the array it received, with one
        gradient out per `next_functions` entry, each checked against its input's shape and
        dtype; a leaf's gradient goes into its .grad. A node with more to it runs in full. (No
        node has had a hook yet: see run_node_minding_hooks.)"""
        grad = grads[0]
        if not self.on_arrays or len(grads) > 1:
            return self.run_node_in_full(node, grads)  # tensors shown, several outputs
        if type(node) is AccumulateGrad:  # a leaf
            leaf = node.variable
            if not leaf._requires_grad:
                return self.run_node_in_full(node, grads)
            accumulate_into(leaf, grad, keep_graph=False)
            return ()
        formula = node._forward_cls._backward_on_arrays  # (None: a formula on tensors only)
        if formula is None or node._unpacks_through_hooks or type(grad) is Tensor:
            return self.run_node_in_full(node, grads)  # (a gradient that came as a tensor)
        grad_inputs = formula(node, grad)
        if type(grad_inputs) is not tuple:  # its one input's
            grad_inputs = (grad_inputs,)
        if node._tensor_positions is not None:  # some of forward's arguments were not tensors
            grad_inputs = node._one_per_input(grad_inputs)
        for g, (shape, dtype) in zip(grad_inputs, node._input_meta):
            if g is not None and (g.shape != shape or g.dtype != dtype):
                return arrays_fitted(node, grad_inputs)  # summed back to its shape, or cast
        return grad_inputs

    def run_node_minding_hooks(self, node: Node, grads: list) -> tuple:
        """`run_node` once some node of this process has had a hook (`_handles.seen`): a node
        with a hook, a retained .grad or nothing to compute, or a leaf with a
        post-accumulate-grad hook, runs in full."""
        if node._has_hooks or (type(node) is AccumulateGrad
                               and node.variable._post_accumulate_grad_hooks):
            return self.run_node_in_full(node, grads)
        return GraphTask.run_node(self, node, grads)

    def run_node_in_full(self, node: Node, grads: list) -> tuple:
        """A node's turn with all it may have, in PyTorch's order: the hooks on the tensors it
        made and their retained .grad, then `call_function`. Hooks and a custom Function's
        backward are the caller's code: numpy warns in them as it does outside the pass."""
        loud = _numpy_errors.set(self.numpy_outside)
        try:
            if node._tensor_hooks or node._retained:
                grads = call_tensor_hooks(node, as_tensors(grads))
            return self.call_function(node, grads)
        finally:
            _numpy_errors.reset(loud)

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
        # A node that leads to no input never runs: it keeps what it saved, as in PyTorch, for
        # a later backward through it.
        self.kept = {node for node, needed in self.needed.items() if not needed}
        # A lone root's node is PyTorch's graph root: it is always evaluated, so the hooks and
        # retained .grad of the root tensor see its gradient even when it leads to no input.
        self.lone_root = None
        if len(roots) == 1:
            root = roots[0]
            self.lone_root = root.grad_fn if root.grad_fn is not None else edge_of(root)[0]

    def run_node(self, node: Node, grads: list) -> tuple:
        """As GraphTask's `run_node_in_full`, with the capture where PyTorch's engine makes it
        (evaluate_function): a node that runs is captured before the hooks of the tensors it
        made (they run with it, after); one that only ends a path, after them. Nothing runs
        for a node that leads to no input."""
        needed = self.needed[node]
        if not (needed or node in self.targets or node is self.lone_root):
            return (None,) * len(node.next_functions)  # as if it were not in the graph
        loud = _numpy_errors.set(self.numpy_outside)  # (hooks: the caller's code)
        try:
            if not needed and (node._tensor_hooks or node._retained):
                grads = call_tensor_hooks(node, as_tensors(grads))
            for output_nr, grad in enumerate(grads):
                captured = as_tensors([grad])[0]  # (one tensor, should inputs name it twice)
                for i in self.captures.get((node, output_nr), ()):
                    self.captured[i] = captured
            if not needed:
                return (None,) * len(node.next_functions)
            if node._tensor_hooks or node._retained:
                grads = call_tensor_hooks(node, as_tensors(grads))
            return self.call_function(node, grads)
        finally:
            _numpy_errors.reset(loud)

    run_node_minding_hooks = run_node  # (it minds every node's hooks itself)


def _is_efficient_zero(grad: Any) -> bool:
    return type(grad) is Tensor and "_efficient_zero" in grad.__dict__


def _with_efficient_zero(total: Any, grad: Any) -> Tensor:
    """PyTorch's sum in a slot where an efficient zero is (ops/operands.efficient_zero): its
    ZeroTensor kernel gives the other side's values, or the zero when both are; in a plain
    pass a gradient that arrives after a real one is added to it in place (zeros and all)."""
    total, grad = as_tensors([total, grad])
    if _is_efficient_zero(total) and _is_efficient_zero(grad):
        return total
    if not _grad_mode.state.enabled:
        # (np.asarray: two 0-d arrays add up to a numpy scalar, which would be made a tensor
        # of the default dtype)
        return grad if _is_efficient_zero(total) else tensor_of(np.asarray(total._data + grad._data))
    kept = grad if _is_efficient_zero(total) else total
    recorded = total + grad  # a recorded sum, with the values of the side that is not zero
    recorded._data = kept._data.copy()
    return recorded


def as_tensors(grads: Any) -> list:
    """Gradients as tensors, for what shows them to the learner: hooks, retained and captured
    gradients, a node's formula on tensors. (A pass that builds no graph carries them as
    numpy arrays.)"""
    return [g if g is None or isinstance(g, Tensor) else tensor_of(np.asarray(g)) for g in grads]


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
