"""The backward pass: find every node reachable from the outputs, then run each one once,
after all the nodes that send it a gradient, adding up what arrives from different paths.

No recursion: the graph is walked with an explicit stack, so a chain of a million
operations is as fine as a chain of three."""
from __future__ import annotations

import heapq
from typing import Any, Iterator, Sequence

from .. import _grad_mode
from .._dtype import from_numpy
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
        stack: list[tuple[Node, Iterator]] = [(root, iter(root._edges[::2]))]
        while stack:  # depth-first, children before parents: a post-order
            node, children = stack[-1]
            for child in children:
                if child is not None and child not in visited:
                    visited.add(child)
                    stack.append((child, iter(child._edges[::2])))
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
                               for child in node._edges[::2])

    buffers: dict[Node, list] = {}
    for (node, nr), grad in zip(root_edges, grad_roots):
        _add_to_buffer(buffers, node, nr, grad)
    captured: list[Any] = [None] * (len(inputs) if inputs is not None else 0)

    ready = [(-node._sequence_nr, i, node) for i, node in enumerate(dict.fromkeys(
        node for node, _ in root_edges)) if dependencies[node] == 0]
    heapq.heapify(ready)
    tie = len(ready)
    pop, push = heapq.heappop, heapq.heappush  # this loop runs once per node: it is kept lean
    plain_run = needed is None and not capture and not _observers
    following = None  # the one node that became ready while none waited: it runs next, no heap
    with _grad_mode.set_grad_enabled(create_graph):
        while following is not None or ready:
            if following is not None:
                node, following = following, None
            else:
                node = pop(ready)[2]
            grads = buffers.pop(node, None)
            outputs: tuple = ()
            if grads is None:
                pass
            elif plain_run and _is_plain(node):
                outputs = _run_plain(node, grads)
            elif needed is None or needed[node] or node in targets:
                outputs = _run_node(node, grads, capture, captured, accumulate, inputs,
                                    needed is None or needed[node])
            if not retain_graph and node._saved is not None:
                node._saved, node._freed = None, True  # saved tensors are freed as they are used
            count, edges = len(outputs), node._edges
            for i in range(0, len(edges), 2):  # flat: node, output_nr, node, output_nr, ...
                child = edges[i]
                if child is None:
                    continue
                if i >> 1 < count and outputs[i >> 1] is not None:
                    _add_to_buffer(buffers, child, edges[i + 1], outputs[i >> 1])
                left = dependencies[child] - 1
                dependencies[child] = left
                if left:
                    continue
                if following is None and not ready:
                    following = child
                    continue
                if following is not None:  # two became ready: the heap orders them
                    tie += 1
                    push(ready, (-following._sequence_nr, tie, following))
                    following = None
                tie += 1
                push(ready, (-child._sequence_nr, tie, child))
    return captured if not accumulate else None


def _is_plain(node: Node) -> bool:
    """No hooks, no retained `.grad` and not an AccumulateGrad: the node only computes."""
    return (type(node) is not AccumulateGrad and not node._tensor_hooks and not node._retained
            and not node._pre_hooks and not node._post_hooks)


def _run_plain(node: Node, grads: list) -> tuple:
    """`_run_node` for a plain node, without the checks that cannot apply to it."""
    for g in grads:
        if g is None:  # an output without a gradient: only multi-output nodes have them
            grads = [_materialize(node, nr, g) for nr, g in enumerate(grads)]
            break
    grad_inputs = node.apply(*grads)
    edges, meta = node._edges, node._input_meta
    if 2 * len(grad_inputs) != len(edges):
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients (expected "
            f"{len(edges) // 2}, got {len(grad_inputs)})")
    for i, g in enumerate(grad_inputs):  # gradients as their inputs are: see _validate
        if g is not None:
            data = g._data
            if edges[2 * i] is None or data.shape != meta[i][0] or data.dtype != meta[i][1]:
                return tuple(_validate(node, i, g) for i, g in enumerate(grad_inputs))
    return grad_inputs


def _count_dependencies(roots: list[Node]) -> dict[Node, int]:
    """How many edges lead into each node reachable from `roots`: a node runs once all of
    them have delivered. One walk with an explicit stack, so any depth is fine."""
    counts = dict.fromkeys(roots, 0)
    stack = list(counts)
    while stack:
        for child in stack.pop()._edges[::2]:
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
    slots = buffers.get(node)
    if slots is None:
        if nr == 0 and type(node._outputs) is not tuple:  # one output (see graph.output_ref)
            buffers[node] = [grad]
            return
        slots = buffers[node] = [None] * max(nr + 1, _num_outputs(node))
    elif len(slots) <= nr:
        slots.extend([None] * (nr + 1 - len(slots)))
    slots[nr] = grad if slots[nr] is None else slots[nr] + grad


def _num_outputs(node: Node) -> int:
    return max(1, num_outputs(node))


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
                accumulate_into(tensor, grads[nr], keep_graph=_grad_mode._enabled)
        if capture and (node, nr) in capture:
            for i in capture[(node, nr)]:
                captured[i] = grads[nr]
            retained = node._retained and nr in node._retained
            if accumulate and not isinstance(node, AccumulateGrad) and not retained:
                # backward(inputs=[non_leaf]) fills that non-leaf's .grad, as PyTorch does
                accumulate_into(inputs[capture[(node, nr)][0]], grads[nr],
                                 keep_graph=_grad_mode._enabled)
    for hook in list(node._pre_hooks.values()) if node._pre_hooks else ():
        result = hook(tuple(grads))
        if result is not None:
            grads = list(result)

    if isinstance(node, AccumulateGrad):
        if accumulate and grads[0] is not None and (inputs is None or (node, 0) in capture):
            before = node.variable._grad  # a copy when observed: accumulation is in place
            if _observers and before is not None:
                before = before.detach().clone()
            accumulate_into(node.variable, grads[0], keep_graph=_grad_mode._enabled)
            if node.variable._grad.grad_fn is not None:
                warn_grad_cycle()
            if _observers:
                _notify("accumulate", tensor=node.variable, grad=grads[0], before=before)
        return ()
    if not execute:
        return ()

    grad_outputs = [_materialize(node, nr, g) for nr, g in enumerate(grads)]
    grad_inputs = node.apply(*grad_outputs)
    if 2 * len(grad_inputs) != len(node._edges):
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients (expected "
            f"{len(node._edges) // 2}, got {len(grad_inputs)})")
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
    from ..creation import zeros

    return zeros(out.shape, dtype=out.dtype)


def _validate(node: Node, i: int, grad: Any) -> Any:
    """The one place where broadcasting is undone: a gradient is summed back to its input's
    shape (PyTorch's engine does the same), and cast to the input's dtype."""
    if grad is None or i >= len(node._input_meta) or node._input_meta[i] is None:
        return grad
    if node._edges[2 * i] is None:
        return None
    shape, dtype = node._input_meta[i]
    if grad._data.shape != shape:
        from ..ops.shape import sum_to

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
