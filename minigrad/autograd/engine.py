"""The backward pass: find every node reachable from the outputs, then run each one once,
after all the nodes that send it a gradient, adding up what arrives from different paths.

No recursion: the graph is walked with an explicit stack, so a chain of a million
operations is as fine as a chain of three."""
from __future__ import annotations

import heapq
import itertools
from typing import Any, Iterator, Sequence

from .. import _grad_mode
from .._dtype import from_numpy
from ..creation import zeros
from ..ops.shape import sum_to
from .accumulate import accumulate_into, warn_grad_cycle
from .graph import AccumulateGrad, Node, num_outputs, output_ref
from .observe import _notify, _observers

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


def run_backward(
    roots: Sequence[Any],
    grad_roots: Sequence[Any],
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[Any] | None = None,
    accumulate: bool = True,
) -> list[Any] | None:
    """Backpropagate `grad_roots` from the tensors `roots`.

    With `accumulate`, leaves' `.grad` are updated (restricted to `inputs` when given); without,
    the gradients that reach `inputs` are returned instead (that is `autograd.grad`)."""
    root_edges = [_edge_of(t) for t in roots]
    dependencies = _count_dependencies([node for node, _ in root_edges])

    # Where gradients are wanted, and which nodes lead there; others need not run.
    capture: dict[tuple, list[int]] = {}  # edge -> positions in `inputs` (it may repeat)
    if inputs is not None:
        for i, t in enumerate(inputs):
            capture.setdefault(_edge_of(t), []).append(i)
    targets = {node for node, _ in capture}
    needed: dict[Node, bool] | None = None  # does running this node bring a gradient to a target?
    if inputs is not None:  # (without inputs, every node does)
        needed = {}
        for node in reversed(topological_order([node for node, _ in root_edges])):
            needed[node] = any(child is not None and (child in targets or needed[child])
                               for child, _ in node.next_functions)

    buffers: dict[Node, list] = {}
    for (node, nr), grad in zip(root_edges, grad_roots):
        _add_to_buffer(buffers, node, nr, grad)
    captured: list[Any] = [None] * (len(inputs) if inputs is not None else 0)

    # The nodes whose gradients are all in, latest created first (as PyTorch's engine does);
    # the counter breaks ties in the order they became ready.
    ready: list[tuple[float, int, Node]] = []
    tie = itertools.count()
    for node in dict.fromkeys(node for node, _ in root_edges):
        if dependencies[node] == 0:
            heapq.heappush(ready, (-node._sequence_nr, next(tie), node))
    plain_run = needed is None and not capture and not _observers
    with _grad_mode.set_grad_enabled(create_graph):
        while ready:
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node, None)
            grad_inputs: tuple = ()  # a node that does not run sends nothing on
            if grads is None:
                pass
            elif plain_run and _is_plain(node):
                grad_inputs = _run_plain(node, grads)
            elif needed is None or needed[node] or node in targets:
                grad_inputs = _run_node(node, grads, capture, captured, accumulate, inputs,
                                        needed is None or needed[node])
            if not retain_graph:
                _free_saved(node)
            for (child, nr), grad in itertools.zip_longest(node.next_functions, grad_inputs):
                if child is None:
                    continue
                if grad is not None:
                    _add_to_buffer(buffers, child, nr, grad)
                dependencies[child] -= 1
                if dependencies[child] == 0:
                    heapq.heappush(ready, (-child._sequence_nr, next(tie), child))
    return captured if not accumulate else None


def _free_saved(node: Node) -> None:
    """Without retain_graph, what a node saved is dropped as soon as it has run: memory comes
    back during the backward pass, and a second backward raises ERR_BACKWARD_TWICE."""
    if node._saved is not None:
        node._saved, node._freed = None, True


def _is_plain(node: Node) -> bool:
    """No hooks, no retained `.grad` and not an AccumulateGrad: the node only computes."""
    return (type(node) is not AccumulateGrad and not node._tensor_hooks and not node._retained
            and not node._pre_hooks and not node._post_hooks)


def _run_plain(node: Node, grads: list) -> tuple:
    """`_run_node` for a plain node, without the checks that cannot apply to it.

    Most nodes of most backward passes are plain; skipping hooks, capture and a `_validate`
    call per gradient saves 8% of a scalar chain, forward and backward (benchmarks/tricks.md)."""
    for g in grads:
        if g is None:  # an output without a gradient: only multi-output nodes have them
            grads = [_materialize(node, nr, g) for nr, g in enumerate(grads)]
            break
    grad_inputs = node.apply(*grads)
    _check_count(node, grad_inputs)
    for g, (shape, dtype) in zip(grad_inputs, node._input_meta):
        # Gradients mostly come out as their inputs are; only if one does not, _validate.
        if g is not None and (g._data.shape != shape or g._data.dtype != dtype):
            return tuple(_validate(node, i, g) for i, g in enumerate(grad_inputs))
    return grad_inputs


def _check_count(node: Node, grad_inputs: tuple) -> None:
    """One gradient per input of the node: a custom Function can return too few or many."""
    expected = len(node._input_meta)
    if len(grad_inputs) != expected:
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients (expected "
            f"{expected}, got {len(grad_inputs)})")


def _count_dependencies(roots: list[Node]) -> dict[Node, int]:
    """How many edges lead into each node reachable from `roots`: a node runs once all of
    them have delivered. One walk with an explicit stack, so any depth is fine."""
    counts = dict.fromkeys(roots, 0)
    stack = list(counts)
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child in counts:
                counts[child] += 1
            else:
                counts[child] = 1
                stack.append(child)
    return counts


def _edge_of(t: Any) -> tuple:
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    return (t._grad_accumulator(), 0)


def _add_to_buffer(buffers: dict, node: Node, nr: int, grad: Any) -> None:
    """Gradients that reach the same output of `node` along different paths are added up."""
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * max(nr + 1, num_outputs(node))
    elif len(slots) <= nr:
        slots.extend([None] * (nr + 1 - len(slots)))
    slots[nr] = grad if slots[nr] is None else slots[nr] + grad


def _run_node(node: Node, grads: list, capture: dict, captured: list, accumulate: bool,
              inputs: Sequence[Any] | None, execute: bool) -> tuple:
    """Hooks, then the node's backward; returns the gradients for its next_functions."""
    for nr in range(len(grads)):
        if grads[nr] is None:
            continue
        if node._tensor_hooks and nr in node._tensor_hooks:
            for hook in list(node._tensor_hooks[nr].values()):
                result = hook(grads[nr])
                if result is not None:
                    grads[nr] = result
        if node._retained and nr in node._retained:
            tensor = node._retained[nr]()
            if tensor is not None:
                accumulate_into(tensor, grads[nr], keep_graph=_grad_mode.state.enabled)
        if capture and (node, nr) in capture:
            for i in capture[(node, nr)]:
                captured[i] = grads[nr]
            retained = node._retained and nr in node._retained
            if accumulate and not isinstance(node, AccumulateGrad) and not retained:
                # backward(inputs=[non_leaf]) fills that non-leaf's .grad, as PyTorch does
                accumulate_into(inputs[capture[(node, nr)][0]], grads[nr],
                                 keep_graph=_grad_mode.state.enabled)
    for hook in list(node._pre_hooks.values()) if node._pre_hooks else ():
        result = hook(tuple(grads))
        if result is not None:
            grads = list(result)

    if isinstance(node, AccumulateGrad):
        if accumulate and grads[0] is not None and (inputs is None or (node, 0) in capture):
            before = node.variable._grad  # a copy when observed: accumulation is in place
            if _observers and before is not None:
                before = before.detach().clone()
            accumulate_into(node.variable, grads[0], keep_graph=_grad_mode.state.enabled)
            if node.variable._grad.grad_fn is not None:
                warn_grad_cycle()
            if _observers:
                _notify("accumulate", tensor=node.variable, grad=grads[0], before=before)
        return ()
    if not execute:
        return ()

    grad_outputs = [_materialize(node, nr, g) for nr, g in enumerate(grads)]
    grad_inputs = node.apply(*grad_outputs)
    _check_count(node, grad_inputs)
    grad_inputs = tuple(_validate(node, i, g) for i, g in enumerate(grad_inputs))
    for hook in list(node._post_hooks.values()) if node._post_hooks else ():
        result = hook(grad_inputs, tuple(grad_outputs))
        if result is not None:
            grad_inputs = tuple(result)
    if _observers:
        _notify("node", node=node, grad_outputs=tuple(grad_outputs), grad_inputs=grad_inputs)
    return grad_inputs


def _materialize(node: Node, nr: int, grad: Any) -> Any:
    """An output that received no gradient gets zeros, unless the Function opted out."""
    if grad is not None or not getattr(node, "_materialize_grads", True):
        return grad
    ref = output_ref(node, nr)
    out = ref() if ref is not None else None
    if out is None:
        return None
    return zeros(out.shape, dtype=out.dtype)


def _validate(node: Node, i: int, grad: Any) -> Any:
    """The one place where broadcasting is undone: a gradient is summed back to its input's
    shape (PyTorch's engine does the same), and cast to the input's dtype."""
    if grad is None or i >= len(node._input_meta) or node._input_meta[i] is None:
        return grad
    if node.next_functions[i][0] is None:
        return None
    shape, dtype = node._input_meta[i]
    if grad._data.shape != shape:
        if not _expandable(shape, grad.shape):
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i} - got "
                f"[{', '.join(map(str, grad.shape))}] but expected shape compatible with "
                f"[{', '.join(map(str, shape))}]")
        grad = sum_to(grad, shape)
    if grad._data.dtype != dtype:
        grad = grad.to(from_numpy(dtype))
    return grad


def _expandable(shape: tuple, target: tuple) -> bool:
    if len(shape) > len(target):
        return False
    return all(s == 1 or s == t for s, t in zip(reversed(shape), reversed(target)))
