"""A Graph (see _graph) written as DOT with the `graphviz` package: labels, colours, legend.

Tensors are record boxes { name, shape | data | grad } in Courier, so that the rows of an
array line up. (The WebAssembly Graphviz has no HTML-like labels: records are what works
everywhere.) `Marks` lets the step-by-step view highlight a node, rewrite the rows and
colour the edges a gradient travels along, while keeping every box and edge in place.

Two layouts: "across" (the forward graph left to right, the backward graph right to left:
the output on the right either way) and "down" (the output at the bottom), for graphs too
long to fit a notebook's width."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import _style as S
from ..autograd.graph import output_ref
from ._graph import Box, Graph
from ._values import grad_text, shape_text, tensor_values

Names = Callable[[Any], "str | None"]


@dataclass
class Marks:
    """What one frame of the step-by-step view changes in the picture."""

    active: set[int] = field(default_factory=set)  # boxes running now
    grads: dict[int, str] = field(default_factory=dict)  # box -> text of its grad row
    fresh_grads: dict[int, str] = field(default_factory=dict)  # grad rows changing now
    received: dict[int, str] | None = None  # box -> gradient arrived so far (a row of its own)
    fresh_received: dict[int, str] = field(default_factory=dict)
    # box -> the gradient its tensor hooks passed on (a row only on tensors that have hooks)
    hooked: dict[int, str] = field(default_factory=dict)
    fresh_hooked: dict[int, str] = field(default_factory=dict)
    flow: dict[int, str] = field(default_factory=dict)  # edge index -> gradient it carries
    widths: dict[int, int] = field(default_factory=dict)  # box -> characters to reserve
    # edge index -> the longest gradient it carries in any frame. Every frame gives the edge
    # that label, invisible where no gradient is on it, so that the boxes stay in place (a
    # label is laid out like a box, never drawn over one).
    labels: dict[int, str] = field(default_factory=dict)
    caption: str | None = None

LAYOUTS = ("across", "down")
# (forward, backward) rankdir of each layout
_RANKDIR = {"across": ("LR", "RL"), "down": ("TB", "BT")}


def _record_text(text: str) -> str:
    """Escape for a record field: spaces kept (records collapse them), | { } < > literal."""
    for char in "\\{}|<>":
        text = text.replace(char, "\\" + char)
    return text.replace(" ", "\\ ")


def _rows(title: str, text: str, width: int) -> str:
    """`title value`, left-aligned, continuation lines indented under the value; values padded
    to `width` characters so that a box keeps its size from frame to frame."""
    pad = " " * (len(title) + 1)
    lines = [(f"{title} " if n == 0 else pad) + line.ljust(width)
             for n, line in enumerate(text.split("\n"))]
    # Slack at the end of long lines: a browser's monospace font may be a little wider than
    # the Courier metrics Graphviz measured with.
    lines = [line + " " * (len(line) // 24) for line in lines]
    return "".join(_record_text(line) + "\\l" for line in lines)


def tensor_label(box: Box, name: str | None, marks: Marks, i: int) -> str:
    """The fields of a tensor's record, stacked (the caller wraps them for a vertical layout)."""
    t = box.tensor
    width = marks.widths.get(i, 0)
    title = (f"{name}  " if name else "") + shape_text(t.shape, t.dtype.name)
    fields = [_record_text(title), _rows("data", tensor_values(t), width),
              _rows("grad", marks.grads.get(i, grad_text(t._grad)), width)]
    if marks.received is not None and i in marks.received:
        fields.append(_rows("received", marks.received[i], width))
    if i in marks.hooked:
        fields.append(_rows("after hook", marks.hooked[i], width))
    return "|".join(fields)


def saved_label(box: Box, names: Names) -> str:
    saved = box.saved
    if saved.is_own_output:  # an alias of the node's output: name the output, if alive
        ref = output_ref(box.node, saved.output_nr)
        owner = names(ref()) if ref is not None else None
        whose = f"output of {type(box.node).__name__}"
        lines = [f"saved: {owner}", whose] if owner else [f"saved: {whose}"]
    else:
        lines = [f"saved: {names(saved.tensor) or _describe(saved.tensor)}"]
    lines += [shape_text(saved.tensor.shape, saved.tensor.dtype.name),
              f"version at save {saved.version}, now {saved.current_version}"]
    return "|".join(_record_text(line) for line in lines)


def _describe(t: Any) -> str:
    """What an unnamed tensor is, in a few words."""
    if t.grad_fn is not None:
        return f"output of {type(t.grad_fn).__name__}"
    return "a leaf" if t.requires_grad else "a constant"


def _node_attrs(g: Graph, i: int, names: Names, marks: Marks, max_nodes: int,
                stack: Callable[[str], str]) -> dict:
    box = g.boxes[i]
    active = i in marks.active
    if box.kind in ("op", "accumulate"):
        label = type(box.node).__name__  # as in `grad_fn=<MulBackward0>` (and in torchviz)
        if box.node._freed and g.view == "backward":
            label += "\\n(saved tensors freed)"
        return {"label": label, "shape": "box", "style": "rounded,filled",
                "fillcolor": S.ACTIVE_FILL if active else S.fill(box.kind),
                "penwidth": "2.5" if active else "1", "fontsize": "10", "margin": "0.08,0.04",
                "height": "0.3"}
    if box.kind in ("saved", "stale"):
        stale = box.kind == "stale"
        return {"label": stack(saved_label(box, names)), "shape": "record",
                "fillcolor": S.fill(box.kind),
                "fontsize": "10", "color": "#cb181d" if stale else S.INK,
                "penwidth": "2" if stale else "1"}
    if box.kind == "freed":
        old = names(box.old_name_of)
        what = f"{old} before an in-place change" if old else "temporary, freed"
        shape = "" if box.shape is None else "\\n" + shape_text(box.shape, box.dtype.name)
        return {"label": what + shape, "shape": "box", "style": "dashed,rounded,filled",
                "fillcolor": S.fill("freed"), "fontsize": "9", "fontcolor": S.MUTED}
    if box.kind == "summary":
        return {"label": f"… {g.hidden:,} more nodes not shown\\n(max_nodes={max_nodes:,})",
                "shape": "note", "style": "dashed", "fontcolor": S.MUTED}
    return {"label": stack(tensor_label(box, names(box.tensor), marks, i)), "shape": "record",
            "fontname": S.MONO, "fontsize": "10", "fillcolor": S.fill(box.kind),
            "color": S.ACTIVE_EDGE if active else S.INK, "penwidth": "3" if active else "1"}


_EDGE_STYLE = {"retain": {"style": "dashed", "arrowhead": "odot"},
               "saved": {"style": "dotted", "dir": "none"}}


# Boxes on the path from the inputs to the output, as opposed to leaves and constants
# coming in from the side. Heavier edges between them keep a long chain from drifting
# sideways (dot centres each operation between its inputs).
_CHAIN = {"op", "accumulate", "intermediate", "retained", "freed", "output", "summary"}


def to_dot(g: Graph, names: Names, max_nodes: int, marks: Marks | None = None,
           layout: str = "across", legend: bool = True) -> str:
    import graphviz

    marks = marks or Marks()
    rankdir = _RANKDIR[layout][g.view == "backward"]
    # A record's fields run across the rank direction: stacked in a row layout, they need
    # braces to stay stacked when the ranks run down.
    stack = (lambda fields: fields) if layout == "across" else (lambda fields: f"{{{fields}}}")
    dot = graphviz.Digraph(graph_attr=dict(S.GRAPH_ATTRS, rankdir=rankdir),
                           node_attr=S.NODE_ATTRS, edge_attr=S.EDGE_ATTRS)
    for i in range(len(g.boxes)):
        dot.node(f"n{i}", **_node_attrs(g, i, names, marks, max_nodes, stack))
    for k, e in enumerate(g.edges):
        attrs = dict(_EDGE_STYLE.get(e.role, {}))
        if layout == "down" and g.boxes[e.src].kind in _CHAIN and g.boxes[e.dst].kind in _CHAIN:
            attrs["weight"] = "4"  # keep the main chain straight, side inputs beside it
        if k in marks.labels:
            attrs.update(label=marks.labels[k], fontcolor="transparent")
        if k in marks.flow:
            attrs.update(color=S.FLOW, penwidth="2.2", fontcolor=S.FLOW)
            if marks.flow[k]:
                attrs["label"] = marks.flow[k]
            if g.view == "forward":
                attrs["dir"] = "back"  # the gradient runs against the forward arrow
        dot.edge(f"n{e.src}", f"n{e.dst}", **attrs)
    if legend:
        _legend(dot, g, steps=marks.received is not None, layout=layout)
    return dot.source


LEGEND_ROW = 3  # legend entries side by side in the "down" layout


def _legend(dot: Any, g: Graph, steps: bool, layout: str) -> None:
    """Legend boxes, one per colour used, in a frame of their own next to the first output:
    in its column in the "across" layout (rank=same across a cluster needs newrank=true),
    below it in rows in the "down" layout."""
    entries = legend_entries(g, steps)
    dot.attr(newrank="true")
    with dot.subgraph(name="cluster_legend") as box:
        box.attr(label="legend", style="rounded,dashed", color=S.MUTED, fontsize="9",
                 fontcolor=S.MUTED, margin="6")
        if layout == "down":
            _legend_rows(box, entries, g.view)
        else:
            for n, entry in reversed(list(enumerate(entries))):  # declared bottom-up
                _legend_box(box, n, entry)
    if layout == "down":
        _below(dot, "n0", "legend0", g.view)
        return
    with dot.subgraph() as same:
        same.attr(rank="same")
        same.node("n0")
        for n in range(len(entries)):
            same.node(f"legend{n}")


def legend_dot(g: Graph, steps: bool) -> str:
    """The legend of `g` as a picture of its own, in rows (shown once above many frames)."""
    import graphviz

    dot = graphviz.Digraph(graph_attr=dict(S.GRAPH_ATTRS, rankdir="TB", ranksep="0.12"),
                           node_attr=S.NODE_ATTRS)
    _legend_rows(dot, legend_entries(g, steps), "forward", per_row=4)
    return dot.source


LEGEND_ROW = 2  # legend entries side by side in a picture's rows


def _legend_rows(dot: Any, entries: list, view: str, per_row: int = LEGEND_ROW) -> None:
    for n, entry in enumerate(entries):
        _legend_box(dot, n, entry)
    rows = [range(n, min(n + per_row, len(entries))) for n in range(0, len(entries), per_row)]
    for row in rows:
        with dot.subgraph() as same:
            same.attr(rank="same")
            for n in row:
                same.node(f"legend{n}")
    for upper, lower in zip(rows, rows[1:]):  # invisible edges hold the rows in order
        _below(dot, f"legend{upper[0]}", f"legend{lower[0]}", view)


def _legend_box(dot: Any, n: int, entry: tuple[str, str, str]) -> None:
    """A legend box drawn like the boxes it explains."""
    style, colour, text = entry
    attrs = {"style": style, "fillcolor": colour}
    if "filled" not in style:  # a colour of lines and text, not of a fill
        attrs = {"style": style, "color": colour, "fontcolor": colour}
    dot.node(f"legend{n}", label=text, shape="box", fontsize="9", height="0.25",
             margin="0.06,0.03", **attrs)


def _below(dot: Any, upper: str, lower: str, view: str) -> None:
    """An invisible edge that puts `lower` a rank under `upper` (the backward view runs
    bottom to top, BT, so its edges point up)."""
    ends = (upper, lower) if view == "forward" else (lower, upper)
    dot.edge(*ends, style="invis")


def legend_entries(g: Graph, steps: bool) -> list[tuple[str, str, str]]:
    entries = S.legend_entries({b.kind for b in g.boxes}, steps)
    if g.view == "backward":
        entries.append(("rounded", S.MUTED, "arrows: gradients flow to leaves"))
    return entries
