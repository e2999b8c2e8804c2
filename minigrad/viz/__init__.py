"""Pictures of computation graphs, for the course: `draw(y)` shows every tensor that led to
`y` with its data and `.grad`, and `backward_steps(loss)` shows a backward pass step by step.

    from minigrad import viz
    viz.draw(y)                        # tensors and operations, left to right (or down)
    viz.draw(y, view="backward")       # PyTorch's grad_fn graph, as torchviz draws it
    viz.backward_steps(y)              # runs y.backward(), one frame per node (and hook)

Only numpy is needed to import minigrad; this module loads Graphviz when it draws."""
from __future__ import annotations

import inspect
from collections.abc import Mapping
from types import FrameType

from ..tensor import Tensor
from ._dot import LAYOUTS, to_dot
from ._graph import backward_graph, capped, forward_graph
from ._names import Names
from ._render import Diagram, RenderFailed, fitting_layout
from ._steps import backward_steps
from ._steps_view import BackwardSteps

__all__ = ["BackwardSteps", "Diagram", "RenderFailed", "backward_steps", "draw"]

VIEWS = ("forward", "backward")


def draw(*outputs: Tensor, names: Mapping | None = None, max_nodes: int = 150,
         view: str = "forward", show_saved: bool = False, renderer: str = "wasm",
         layout: str = "auto", legend: bool = True) -> Diagram:
    """Draw the graph that produced `outputs` (several outputs share one picture).

    names: `{tensor: "x"}` to label tensors; otherwise a tensor's `name` attribute, else the
        caller's variable names are used.
    max_nodes: boxes drawn at most; the rest are summarized in one box.
    view: "forward" (tensors and operations) or "backward" (grad_fn nodes, AccumulateGrad).
    show_saved: in the backward view, the tensors each node saved, with version counters.
    renderer: "wasm" (bundled Graphviz, the default) or "system" (`dot` on PATH).
    layout: "across" (the output on the right), "down" (the output at the bottom), or "auto":
        across if that fits a notebook's width (_style.COLUMN_PX), else down.
    legend: False leaves the legend out (to show it once, not in every picture)."""
    outputs = _check(outputs, view, max_nodes, layout)
    graph = forward_graph(outputs) if view == "forward" else backward_graph(outputs, show_saved)
    graph = capped(graph, max_nodes)
    # The caller's frame only: keeping draw()'s own frame in a local would make a reference
    # cycle (frame -> local -> frame) that holds the graph, and its freed activations, alive.
    label_names = Names(_caller_frame(), names)
    _, source, svg = fitting_layout(
        lambda how: to_dot(graph, label_names, max_nodes, layout=how, legend=legend),
        layout, renderer)
    return Diagram(source, nodes=len(graph.boxes), hidden=graph.hidden, renderer=renderer,
                   svg=svg)


def _caller_frame() -> FrameType | None:
    """The frame of whoever called draw() (two levels up from here)."""
    frame = inspect.currentframe()
    try:
        return frame.f_back.f_back if frame is not None and frame.f_back is not None else None
    finally:
        del frame  # as inspect's documentation asks: a frame in its own locals is a cycle


def _check(outputs: tuple, view: str, max_nodes: int, layout: str) -> tuple:
    if len(outputs) == 1 and isinstance(outputs[0], (list, tuple)):
        outputs = tuple(outputs[0])
    if not outputs:
        raise TypeError("draw() needs at least one tensor to draw")
    for t in outputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"draw() expects tensors, got {type(t).__name__}")
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {view!r}")
    if not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    if layout != "auto" and layout not in LAYOUTS:
        raise ValueError(f"layout must be 'auto' or one of {LAYOUTS}, got {layout!r}")
    return outputs
