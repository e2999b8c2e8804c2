"""Watching the backward pass step by step: the step-by-step diagrams (viz.backward_steps)
are drawn from these events of a real `backward()`. A pass that is watched reports each node
it runs (engine.GraphTask picks `reporting` once, when the pass starts)."""
from __future__ import annotations

from typing import Any, Callable

from .accumulate import AccumulateGrad

_observers: list[Callable[..., None]] = []  # see `observe`: the step-by-step diagrams use it


def observe(callback: Callable[..., None]) -> "_Observation":
    """Call `callback(event, **details)` for each step of every backward pass inside the block:
    `("node", node=, grad_outputs=, grad_inputs=)` after a node runs and
    `("accumulate", tensor=, grad=, before=)` when a leaf's `.grad` is updated."""
    return _Observation(callback)


class _Observation:
    def __init__(self, callback: Callable[..., None]) -> None:
        self.callback = callback

    def __enter__(self) -> None:
        _observers.append(self.callback)

    def __exit__(self, *exc_info: Any) -> None:
        _observers.remove(self.callback)


def watching() -> bool:
    return bool(_observers)


def reporting(call_function: Callable) -> Callable:
    """`call_function` (which runs one node) for a pass that is watched: each run is reported."""

    def call_and_report(node: Any, grads: list) -> tuple:
        grad_outputs = tuple(grads)
        if not isinstance(node, AccumulateGrad):
            grad_inputs = call_function(node, grads)
            sent = tuple(None if child is None else g  # nothing goes to an input without grad
                         for g, (child, _) in zip(grad_inputs, node.next_functions))
            _notify("node", node=node, grad_outputs=grad_outputs, grad_inputs=sent)
            return grad_inputs
        before = node.variable._grad  # copied: the accumulation may be in place
        before = None if before is None else before.detach().clone()
        grad_inputs = call_function(node, grads)
        _notify("accumulate", tensor=node.variable, grad=grad_outputs[0], before=before)
        return grad_inputs

    return call_and_report


def _notify(event: str, **details: Any) -> None:
    for callback in list(_observers):
        callback(event, **details)
