"""What a diagram shows, found before anything is drawn: boxes and edges, in the order a
breadth-first walk from the outputs meets them (that order numbers the DOT nodes, so the
same graph always gives the same picture). The walk uses a queue, never recursion.

Forward view: tensors and the operations between them (input -> op -> output).
Backward view: PyTorch's own graph, the `grad_fn` nodes and where gradients flow."""
from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Sequence
from typing import Any

from .._dtype import from_numpy
from ..autograd.accumulate import AccumulateGrad
from ..autograd.graph import ABSENT_INPUT, Node, input_tensor, num_outputs, output_ref
from ..autograd.saved_hooks import HookedSavedTensor


class Box:
    """One node of the picture. `kind` picks its look (see _style.KINDS)."""

    __slots__ = ("dtype", "kind", "node", "old_name_of", "saved", "shape", "tensor")

    def __init__(self, kind: str, tensor: Any = None, node: Node | None = None,
                 shape: tuple | None = None, dtype: Any = None, saved: Any = None,
                 old_name_of: Any = None) -> None:
        self.kind, self.tensor, self.node = kind, tensor, node
        self.shape, self.dtype, self.saved = shape, dtype, saved
        self.old_name_of = old_name_of  # a tensor whose earlier value this (freed) box was


class Edge:
    """`role`: input / output (forward), seed / grad / accumulate / retain / saved (backward).
    `node` and `position` say which next_functions slot it is, for the step-by-step view."""

    __slots__ = ("dst", "node", "position", "role", "src")

    def __init__(self, src: int, dst: int, role: str, node: Node | None = None,
                 position: int | None = None) -> None:
        self.src, self.dst, self.role, self.node, self.position = src, dst, role, node, position


class Graph:
    def __init__(self, view: str) -> None:
        self.view = view
        self.boxes: list[Box] = []
        self.edges: list[Edge] = []
        self.hidden = 0  # boxes left out by max_nodes
        # Three maps, not one: a Tensor must never be compared with == to another key.
        self.tensor_index: dict[Any, int] = {}
        self.node_index: dict[Node, int] = {}
        self.other_index: dict[Hashable, int] = {}

    def add(self, box: Box) -> int:
        self.boxes.append(box)
        return len(self.boxes) - 1

    def edge(self, src: int, dst: int, role: str, node: Node | None = None,
             position: int | None = None) -> None:
        self.edges.append(Edge(src, dst, role, node, position))

    def tensor(self, t: Any, kind: str | None = None) -> int:
        i = self.tensor_index.get(t)
        if i is None:
            i = self.tensor_index[t] = self.add(Box(kind or tensor_kind(t), tensor=t))
        return i


def tensor_kind(t: Any) -> str:
    if t.grad_fn is None:
        return "leaf" if t.requires_grad else "constant"
    return "retained" if t._retains_grad else "intermediate"


def current_output(node: Node, nr: int) -> Any:
    """Output `nr` of `node` if that tensor is alive and still holds that value (an in-place
    operation moves a tensor on to a newer node)."""
    ref = output_ref(node, nr)
    t = ref() if ref is not None else None
    return t if t is not None and t.grad_fn is node and t._output_nr == nr else None


def forward_graph(outputs: Sequence[Any]) -> Graph:
    g = Graph("forward")
    queue: deque[Node] = deque()
    produced: set[tuple[Node, int]] = set()

    def op(node: Node) -> int:
        i = g.node_index.get(node)
        if i is None:
            i = g.node_index[node] = g.add(Box("op", node=node))
            queue.append(node)
        return i

    def produce(node: Node, nr: int, tensor_box: int) -> None:
        if (node, nr) not in produced:
            produced.add((node, nr))
            g.edge(op(node), tensor_box, "output", node, nr)

    def freed(key: Hashable, shape: tuple, dtype: Any, old: Any = None) -> int:
        i = g.other_index.get(key)
        if i is None:
            i = g.other_index[key] = g.add(Box("freed", shape=shape, dtype=dtype, old_name_of=old))
        return i

    for t in outputs:
        if t not in g.tensor_index:
            i = g.tensor(t, "output")
            if t.grad_fn is not None:
                produce(t.grad_fn, t._output_nr, i)
    while queue:
        node = queue.popleft()
        here = g.node_index[node]
        for nr in range(num_outputs(node)):
            out = current_output(node, nr)
            if out is not None:
                produce(node, nr, g.tensor(out))
        for position, (child, nr) in enumerate(node.next_functions):
            if position < len(node._input_meta) and node._input_meta[position] is ABSENT_INPUT:
                continue  # an optional input left out (a convolution without bias)
            shape, dtype = node._input_meta[position] if position < len(node._input_meta) else (
                None, None)
            dtype = None if dtype is None else from_numpy(dtype)
            if child is None:  # an input that does not require grad
                t = input_tensor(node, position)
                if t is None:
                    src = freed(("in", node, position), shape, dtype)
                elif getattr(t, "_is_wrapped_number", False):  # one box per use, not per value
                    src = g.other_index.get(("in", node, position))
                    if src is None:
                        src = g.other_index[("in", node, position)] = g.add(Box("constant",
                                                                                tensor=t))
                else:
                    src = g.tensor(t)
            elif isinstance(child, AccumulateGrad):
                src = g.tensor(child.variable)
            else:
                t = current_output(child, nr)
                if t is not None:
                    src = g.tensor(t)
                else:
                    ref = output_ref(child, nr)
                    src = freed((child, nr), shape, dtype, ref() if ref is not None else None)
                produce(child, nr, src)
            g.edge(src, here, "input", node, position)
    return g


def backward_graph(outputs: Sequence[Any], show_saved: bool) -> Graph:
    g = Graph("backward")
    queue: deque[Node] = deque()

    def node_box(node: Node) -> int:
        i = g.node_index.get(node)
        if i is None:
            kind = "accumulate" if isinstance(node, AccumulateGrad) else "op"
            i = g.node_index[node] = g.add(Box(kind, node=node))
            queue.append(node)
        return i

    for t in outputs:
        if t not in g.tensor_index:
            i = g.tensor(t, "output")
            if t.grad_fn is not None:
                g.edge(i, node_box(t.grad_fn), "seed")
    while queue:
        node = queue.popleft()
        here = g.node_index[node]
        if isinstance(node, AccumulateGrad):
            g.edge(here, g.tensor(node.variable), "accumulate", node)
        for nr in sorted(node._retained or ()):
            t = node._retained[nr]()
            if t is not None and g.boxes[g.tensor(t)].kind != "output":
                g.edge(here, g.tensor(t), "retain", node, nr)
        if show_saved:
            for saved in node._saved or ():
                # (under saved_tensors_hooks a node keeps what pack_hook returned: not drawn)
                if saved is not None and not isinstance(saved, HookedSavedTensor):
                    stale = saved.current_version != saved.version
                    i = g.add(Box("stale" if stale else "saved", tensor=saved.tensor, node=node,
                                  saved=saved))
                    g.edge(i, here, "saved", node)
        for position, (child, _) in enumerate(node.next_functions):
            if child is not None:
                g.edge(here, node_box(child), "grad", node, position)
    return g


def capped(g: Graph, max_nodes: int) -> Graph:
    """The first `max_nodes` boxes (those nearest the outputs) and one summary box standing
    for the rest; edges that crossed the cut are redirected to the summary."""
    if len(g.boxes) <= max_nodes:
        return g
    out = Graph(g.view)
    out.boxes = g.boxes[:max_nodes] + [Box("summary")]
    out.hidden = len(g.boxes) - max_nodes
    summary = max_nodes
    rerouted: set[tuple[int, int]] = set()
    for e in g.edges:
        src = e.src if e.src < max_nodes else summary
        dst = e.dst if e.dst < max_nodes else summary
        if src == dst:
            continue
        if summary in (src, dst):
            if (src, dst) in rerouted:
                continue
            rerouted.add((src, dst))
        out.edges.append(Edge(src, dst, e.role, e.node, e.position))
    out.tensor_index = {t: i for t, i in g.tensor_index.items() if i < max_nodes}
    out.node_index = {n: i for n, i in g.node_index.items() if i < max_nodes}
    return out
