"""One backward pass, frame by frame: which node runs, which gradient it receives, what it
sends to each input, and how `.grad` grows (before + incoming = after). When a tensor's turn
comes, what happens to its gradient before its node runs gets frames of its own, in PyTorch's
order: its hooks replacing the gradient (what arrived, what they returned), then
`retain_grad()` storing it. In predict mode each step is asked before it is shown: a frame with
"?" where the step's values will be, whose caption asks for them, then the frame that shows
them.

The pass is a real `backward()`, watched with `minigrad.autograd.observe.observe`; every value
is copied when it is reported, since `.grad` is later added to in place. The engine reports a
node's gradients after the tensor's hooks ran: a hook's work is seen as the difference between
what reached the tensor (added up here, from what the nodes before sent) and what its node got."""
from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..autograd.observe import observe
from ._dot import LAYOUTS, Marks, legend_dot, to_dot
from ._graph import capped, forward_graph
from ._names import Names
from ._render import Diagram, fitting_layout
from ._steps_view import BackwardSteps
from ._values import shape_text, values_text

# The "received" row of a tensor no gradient has reached yet. ASCII: Graphviz sizes a box with
# estimated widths, and estimates other characters (an en dash) far wider than drawn.
NOTHING = "-"
UNKNOWN = "?"  # a value a predict-mode frame asks for
ORDINALS = ("first", "second", "third", "fourth", "fifth")
_NO_FRAME = object()  # a step with nothing to show (a hook that passed its gradient on as it was)


def backward_steps(output: Any, gradient: Any = None, retain_graph: bool | None = None, *,
                   names: Mapping | None = None, max_nodes: int = 60, max_frames: int = 40,
                   renderer: str = "wasm", layout: str = "auto",
                   predict: bool = False) -> BackwardSteps:
    """Run `output.backward(gradient, retain_graph)` and return its frames: the start, one per
    node the engine runs (AccumulateGrad included), and the end; before a node, the hooks that
    replace the gradient of the tensor it made and `retain_grad()`'s store get a frame each. A
    RuntimeError raised by the backward pass (an in-place change, a second backward...) ends
    the frames with its message; it is kept in `.error`. `layout` as in `viz.draw`, the same for every frame. The frames
    have no legend: the notebook shows it once, above them (`.legend`).

    predict=True asks before it shows: each step first gets a frame with "?" where its values
    will appear (what the node sends, what `.grad` becomes), captioned with the question; the
    frame after it shows the answer."""
    from ..autograd import _make_grads
    from ..autograd.engine import as_tensors
    from ..tensor import Tensor

    if not isinstance(output, Tensor):
        raise TypeError(f"backward_steps() expects a tensor, got {type(output).__name__}")
    if layout != "auto" and layout not in LAYOUTS:
        raise ValueError(f"layout must be 'auto' or one of {LAYOUTS}, got {layout!r}")
    if max_frames < 2:
        raise ValueError(f"max_frames must be at least 2 (the start and the end), got {max_frames}")
    # PyTorch's errors for a missing gradient; the implicit 1 comes as an array (as the engine
    # carries gradients), shown as a tensor
    seed = as_tensors(_make_grads([output], [gradient]))[0]
    frame = inspect.currentframe()
    label_names = Names(frame.f_back if frame is not None else None, names)
    graph = capped(forward_graph([output]), max_nodes)
    story = _Story(graph, label_names)
    story.start(output, seed)
    error = None
    with observe(story.record):
        try:
            output.backward(gradient, retain_graph)
        except RuntimeError as exc:
            error = f"RuntimeError: {exc}"
    story.finish(error)
    frames = story.frames(max_frames, predict)
    chosen, _, svg = fitting_layout(  # every frame has the same size: the first one decides
        lambda how: to_dot(graph, label_names, max_nodes, frames[0], layout=how, legend=False),
        layout, renderer)
    diagrams = [Diagram(to_dot(graph, label_names, max_nodes, marks, chosen, legend=False),
                        len(graph.boxes), graph.hidden, renderer, marks.caption)
                for marks in frames]
    diagrams[0]._svg = svg  # rendered already while choosing the layout (or None)
    legend = Diagram(legend_dot(graph, steps=True), nodes=0, renderer=renderer)
    return BackwardSteps(diagrams, total_steps=story.steps, error=error, legend=legend)


def _copy(t: Any) -> Any:
    return None if t is None else (t._data.copy(), t.dtype.name)


def _same(one: Any, other: Any) -> bool:
    """Do two copied gradients hold the same values (a hook that passed its gradient on)?"""
    return other is not None and one[0].shape == other[0].shape and \
        bool(np.array_equal(one[0], other[0]))


def _text(value: Any) -> str:
    return "None" if value is None else values_text(*value)


def _unknown(before: Any) -> str:
    """A row a predict-mode frame asks for: `?`, or `before + ?` when it adds to a value."""
    return UNKNOWN if before is None else f"{_text(before)} + {UNKNOWN}"


def _nth_input(position: int, count: int) -> str:
    """An unnamed input in words: "its input", "its second input" (never "its input 2",
    which reads as the input whose value is 2)."""
    if count == 1:
        return "its input"
    return f"its {ORDINALS[position]} input" if position < len(ORDINALS) else \
        f"its input number {position + 1}"


def _joined(names: list[str]) -> str:
    """"a and b", "d (twice)": each name once, in order, with how often it appears."""
    counts = {name: names.count(name) for name in names}
    parts = [name if n == 1 else f"{name} ({'twice' if n == 2 else f'{n} times'})"
             for name, n in counts.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _edge_text(value: Any) -> str:
    return "" if value is None else _short(value) if value[0].size <= 4 else "grad"


def _short(value: Any) -> str:
    """A gradient in one line of a caption: its values if few, else its shape."""
    array = value[0]
    if array.size > 4:
        return "a gradient of " + shape_text(array.shape)
    return " ".join(values_text(*value).split())


def _sum(before: Any, incoming: Any, after: Any) -> str:
    """`before + incoming = after`, on one line if it is short, else on two."""
    left, right = f"{_text(before)} + {_text(incoming)}", _text(after)
    one_line = len(left) + len(right) <= 26 and "\n" not in left + right
    return f"{left} = {right}" if one_line else f"{left}\n= {right}"


def _chain_rule(grad_output: Any, grad_input: Any) -> str:
    """`1. × 3. = 3.`: the incoming gradient times the local derivative, for scalars (the
    derivative is read back as grad_input / grad_output); else just the value sent."""
    out_array, in_array = grad_output[0], grad_input[0]
    if out_array.size != 1 or in_array.size != 1 or out_array.reshape(()) == 0:
        return _short(grad_input)
    local = (in_array.reshape(()) / out_array.reshape(())).astype(in_array.dtype)
    return f"{_short(grad_output)} × {_short((local, grad_input[1]))} = {_short(grad_input)}"


class _Story:
    """Collects what the engine reports, then turns it into per-frame Marks."""

    def __init__(self, graph: Any, names: Names) -> None:
        self.graph, self.names = graph, names
        self.events: list[tuple] = []
        self.steps = 0
        self.inputs_of: dict[tuple, int] = {}  # (node, position) -> edge index
        self.outputs_of: dict[Any, list[int]] = {}  # node -> its op -> tensor edges
        for k, e in enumerate(graph.edges):
            if e.role == "input":
                self.inputs_of[(e.node, e.position)] = k
            elif e.role == "output":
                self.outputs_of.setdefault(e.node, []).append(k)
        self.tensor_boxes = [i for i, b in enumerate(graph.boxes) if b.tensor is not None]
        self.hooks: dict[int, int] = {}  # tensor box -> how many hooks ran on it (a row for it)

    def name(self, box: int | None, fallback: str) -> str:
        if box is not None and self.graph.boxes[box].kind == "freed":
            old = self.names(self.graph.boxes[box].old_name_of)
            return f"{old} (its value before an in-place change)" if old else "a temporary"
        t = self.graph.boxes[box].tensor if box is not None else None
        return self.names(t) or fallback

    def start(self, output: Any, gradient: Any) -> None:
        seed = _copy(gradient)
        self.grads = {i: _copy(self.graph.boxes[i].tensor._grad) for i in self.tensor_boxes}
        self.events.append(("start", self.graph.tensor_index.get(output), seed))

    def record(self, event: str, **details: Any) -> None:
        self.steps += 1
        if event == "accumulate":
            t = details["tensor"]
            box = self.graph.tensor_index.get(t)
            incoming = _copy(details["grad"])
            self._hooks(box, len(t._hooks or ()), incoming)
            self.events.append(("accumulate", box, incoming, _copy(details["before"]),
                                _copy(t._grad)))
            return
        node = details["node"]
        grad_outputs = [_copy(g) for g in details["grad_outputs"]]
        for k in self.outputs_of.get(node, ()):  # the tensor's turn: its hooks, retain_grad()
            nr, box = self.graph.edges[k].position, self.graph.edges[k].dst
            incoming = grad_outputs[nr] if nr < len(grad_outputs) else None
            self._hooks(box, len((node._tensor_hooks or {}).get(nr, ())), incoming)
            ref = (node._retained or {}).get(nr)
            t = ref() if ref is not None else None
            if t is not None and t in self.graph.tensor_index and t._grad is not None:
                self.events.append(("retain", self.graph.tensor_index[t], incoming,
                                    _copy(t._grad)))
        self.events.append(("node", node, grad_outputs,
                            [_copy(g) for g in details["grad_inputs"]]))

    def _hooks(self, box: int | None, count: int, passed_on: Any) -> None:
        """A tensor with `count` hooks had its turn, and `passed_on` went on from them."""
        if box is not None and count and passed_on is not None:
            self.hooks[box] = count
            self.events.append(("hook", box, passed_on))

    def finish(self, error: str | None) -> None:
        self.events.append(("end", error))

    def frames(self, max_frames: int, predict: bool = False) -> list[Marks]:
        received: dict[int, Any] = {}  # box -> total gradient arrived so far
        self.arrivals: dict[int, list] = {}  # box -> each gradient that arrived, in order
        self.passed_on: dict[int, Any] = {}  # box -> what its hooks passed on
        grads = dict(self.grads)
        out: list[Marks] = []
        asks: list[bool] = []  # per frame: is it a predict-mode question?
        for event in self.events:
            received_before, grads_before = dict(received), dict(grads)
            passed_on_before = dict(self.passed_on)
            marks = Marks()
            question = getattr(self, "_" + event[0])(event, marks, received, grads)
            if question is _NO_FRAME:
                continue
            self._rows(marks, received, grads, self.passed_on)
            if predict and question is not None:
                out.append(self._asked(marks, *question, received_before, grads_before,
                                       passed_on_before))
                asks.append(True)
            out.append(marks)
            asks.append(False)
        if len(out) > max_frames:
            kept = max_frames - 1
            if asks[kept - 1]:  # never end on a question whose answer is cut
                kept -= 1
            skipped = len(out) - kept - 1
            out = out[:kept] + out[-1:]
            out[-1].caption += f" ({skipped} steps in between not shown: max_frames={max_frames})"
        _reserve_room(out)
        return out

    def _rows(self, marks: Marks, received: dict, grads: dict, passed_on: dict) -> None:
        """Every tensor box's grad and received rows (and after-hook rows, on tensors with
        hooks), the ones changing now included."""
        marks.grads = {i: _text(grads[i]) for i in self.tensor_boxes}
        marks.grads.update(marks.fresh_grads)
        marks.received = {i: _text(received[i]) if i in received else NOTHING
                          for i in self.tensor_boxes  # constants never receive one
                          if self.graph.boxes[i].kind != "constant"}
        marks.received.update(marks.fresh_received)
        marks.hooked = {i: _text(passed_on[i]) if i in passed_on else NOTHING
                        for i in self.hooks}
        marks.hooked.update(marks.fresh_hooked)

    def _asked(self, answer: Marks, caption: str, sent: set[int], received: dict,
               grads: dict, passed_on: dict) -> Marks:
        """The question before `answer`: the same node running, "?" in every row and on every
        edge the step writes (what came in is known already), `caption` asking for them."""
        marks = Marks(active=set(answer.active), caption=caption)
        marks.flow = {k: UNKNOWN if k in sent else text for k, text in answer.flow.items()}
        marks.fresh_grads = {box: _unknown(grads.get(box)) for box in answer.fresh_grads}
        marks.fresh_received = {box: _unknown(received.get(box))
                                for box in answer.fresh_received}
        marks.fresh_hooked = {box: UNKNOWN for box in answer.fresh_hooked}
        self._rows(marks, received, grads, passed_on)
        return marks

    def _arrive(self, box: int, value: Any, received: dict, marks: Marks) -> None:
        before = received.get(box)
        total = value if before is None else (before[0] + value[0], value[1])
        received[box] = total
        self.arrivals.setdefault(box, []).append(value)
        marks.fresh_received[box] = _text(total) if before is None else _sum(before, value, total)

    # Each step below writes its frame into `marks` and returns what predict mode asks first
    # (the question's caption and the edges whose gradients it hides), or None.

    def _start(self, event: tuple, marks: Marks, received: dict, grads: dict) -> tuple:
        _, box, seed = event
        who = self.name(box, "the output")
        if box is not None:
            marks.active.add(box)
            self._arrive(box, seed, received, marks)
        marks.caption = f"backward() starts: {who} gets the gradient {_short(seed)}"
        return f"Predict: backward() starts at {who}; which gradient does {who} get?", set()

    def _node(self, event: tuple, marks: Marks, received: dict, grads: dict) -> tuple:
        _, node, grad_outputs, grad_inputs = event
        box = self.graph.node_index.get(node)
        if box is not None:
            marks.active.add(box)
        for k in self.outputs_of.get(node, ()):  # the gradient coming in
            nr = self.graph.edges[k].position
            value = grad_outputs[nr] if nr < len(grad_outputs) else None
            marks.flow[k] = _edge_text(value)
        single = grad_outputs[0] if len(grad_outputs) == 1 else None
        parts, targets, sent = [], [], set()
        for position, value in enumerate(grad_inputs):  # the gradients going out
            k = self.inputs_of.get((node, position))
            src = self.graph.edges[k].src if k is not None else None
            who = self.name(src, _nth_input(position, len(grad_inputs)))
            if value is None:
                if node.next_functions[position][0] is None:
                    parts.append(f"nothing to {who} (needs no grad)")
                    targets.append(who)
                continue
            parts.append(f"{_chain_rule(single, value) if single else _short(value)} to {who}")
            targets.append(who)
            if k is not None:
                marks.flow[k] = _edge_text(value)
                sent.add(k)
                if self.graph.boxes[src].tensor is not None:
                    self._arrive(src, value, received, marks)
        got = ", ".join(_short(g) for g in grad_outputs if g is not None) or "no gradient"
        how = " grad × local derivative:" if single is not None and "×" in "".join(parts) else ""
        sent_text = ", ".join(parts) or "nothing"
        name = type(node).__name__
        marks.caption = f"{name} gets {got} and sends{how} {sent_text}"
        if not targets:
            return None
        return f"Predict: given {got}, what does {name} send to {_joined(targets)}?", sent

    def _hook(self, event: tuple, marks: Marks, received: dict, grads: dict) -> Any:
        """A tensor's hooks had their turn: a frame of its own when they replaced the gradient
        that arrived (one that looked and passed it on shows in the next frame's rows)."""
        _, box, passed_on = event
        self.passed_on[box], count = passed_on, self.hooks[box]
        arrived = received.get(box)
        if arrived is None or _same(arrived, passed_on):
            return _NO_FRAME
        marks.active.add(box)
        marks.fresh_hooked[box] = _text(passed_on)
        who = self.name(box, "the tensor")
        got, out = _short(arrived), _short(passed_on)
        if count == 1:
            marks.caption = f"the hook on {who} gets {got} and returns {out}: {out} goes on instead"
            return f"Predict: the hook on {who} gets {got}; what does it return?", set()
        marks.caption = (f"the {count} hooks on {who}, one after the other, turn {got} into "
                         f"{out}: {out} goes on instead")
        question = (f"Predict: the {count} hooks on {who} get {got}, one after the other; "
                    "what comes out of the last?")
        return question, set()

    def _retain(self, event: tuple, marks: Marks, received: dict, grads: dict) -> tuple:
        """retain_grad() stores a tensor's gradient once all of it has arrived (after its
        hooks), before its node runs."""
        _, box, incoming, after = event
        before = grads[box]
        marks.active.add(box)
        marks.fresh_grads[box] = _text(after) if before is None else _sum(before, incoming, after)
        grads[box] = after
        who = self.name(box, "the retained tensor")
        marks.caption = (f"retain_grad() stores {who}'s gradient, now complete: " +
                         (f"{who}.grad was None, now {_short(after)}" if before is None else
                          f"{who}.grad = {_short(before)} + {_short(incoming)} = {_short(after)}"))
        came = _joined([_short(g) for g in self.arrivals.get(box, ())]) or "nothing"
        if box in self.passed_on and not _same(self.passed_on[box], received.get(box)):
            hooks = "hook" if self.hooks[box] == 1 else "hooks"
            came += f" reached {who} and its {hooks} returned {_short(self.passed_on[box])}"
        else:
            came += f" reached {who}"
        holds = "is None" if before is None else f"holds {_short(before)}"
        return f"Predict: {came}; {who}.grad {holds}: what does it become?", set()

    def _accumulate(self, event: tuple, marks: Marks, received: dict, grads: dict) -> tuple:
        _, box, incoming, before, after = event
        who = self.name(box, "the leaf")
        holds = "is None" if before is None else f"holds {_short(before)}"
        question = (f"Predict: {who}.grad {holds}; what will AccumulateGrad leave in it?", set())
        if box is None:
            marks.caption = f"AccumulateGrad adds {_short(incoming)} into {who}.grad"
            return question
        marks.active.add(box)
        marks.fresh_grads[box] = _text(after) if before is None else _sum(before, incoming, after)
        grads[box] = after
        marks.caption = (f"AccumulateGrad: {who}.grad was None, now {_short(after)}"
                         if before is None else
                         f"AccumulateGrad: {who}.grad = {_short(before)} + {_short(incoming)}"
                         f" = {_short(after)}")
        return question

    def _end(self, event: tuple, marks: Marks, received: dict, grads: dict) -> None:
        if event[1] is not None:
            marks.caption = f"backward() failed: {event[1]}"
            return
        leaves = [i for i in self.tensor_boxes if self.graph.boxes[i].kind in ("leaf", "retained")
                  and grads[i] is not None]
        done = ", ".join(f"{self.name(i, 'leaf')}.grad = {_short(grads[i])}" for i in leaves)
        marks.caption = "done" + (f": {done}" if done else "")


def _reserve_room(frames: list[Marks]) -> None:
    """Give each box's value rows the same width and height in every frame, so that
    nothing moves between frames but the values."""
    if not frames:
        return
    for box in frames[0].grads:
        rows = ("grads", "received") if box in frames[0].received else ("grads",)
        for row in rows:
            texts = [getattr(m, row)[box] for m in frames]
            lines = max(t.count("\n") for t in texts) + 1
            for m in frames:
                text = getattr(m, row)[box]
                getattr(m, row)[box] = text + "\n" * (lines - 1 - text.count("\n"))
        width = max(len(line) for m in frames for row in rows
                    for line in getattr(m, row)[box].split("\n"))
        for m in frames:
            m.widths[box] = width
    # Room on each edge for the longest gradient it carries in any frame, reserved by an
    # invisible label of as many characters (edge labels are in Courier: same width), not by
    # the value itself, so no picture holds an answer before its frame shows it.
    labels: dict[int, str] = {}
    for m in frames:
        for k, text in m.flow.items():
            if len(text) > len(labels.get(k, "")):
                labels[k] = "0" * len(text)
    for m in frames:
        m.labels = labels
