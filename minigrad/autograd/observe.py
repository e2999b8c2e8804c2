"""Watching backward passes from outside the engine, through events it publishes (never by
reading its frames): each pass announces itself as it starts, and a pass that is watched step
by step reports each node it runs. The step-by-step diagrams (viz.backward_steps) are drawn
from a real `backward()`'s steps; the course's checks (minigrad_course.integrity.watch) count
the passes a learner's function runs. `engine.GraphTask` calls `starting` once per pass when
anyone observes: one `if` per pass, nothing per node, when nobody does."""
from __future__ import annotations

from typing import Any, Callable

from .accumulate import AccumulateGrad

_observers: list[Callable[..., None]] = []  # each step of every pass: see `observe`
_pass_observers: list[Callable[..., None]] = []  # the start of every pass: see `observe_passes`


def observe(callback: Callable[..., None]) -> _Observation:
    """Call `callback(event, **details)` for each step of every backward pass inside the block:
    `("node", node=, grad_outputs=, grad_inputs=)` after a node runs and
    `("accumulate", tensor=, grad=, before=)` when a leaf's `.grad` is updated."""
    return _Observation(callback, _observers)


def observe_passes(callback: Callable[..., None]) -> _Observation:
    """Call `callback("pass", task=, roots=)` as each backward pass inside the block starts, in
    any thread, however it was started (backward(), autograd.grad(), a GraphTask run by hand):
    `task` is the engine's GraphTask (`create_graph`; a CapturingTask's `accumulate` and, once
    it has run, `captured`), `roots` the tensors it starts from. Steps are not reported."""
    return _Observation(callback, _pass_observers)


class _Observation:
    def __init__(self, callback: Callable[..., None], observers: list) -> None:
        self.callback, self.observers = callback, observers

    def __enter__(self) -> None:
        self.observers.append(self.callback)

    def __exit__(self, *exc_info: Any) -> None:
        if self.active:
            self.observers.remove(self.callback)

    @property
    def active(self) -> bool:
        """Is the callback still called? (Code run inside the block may have removed it.)"""
        return self.callback in self.observers


def watching() -> bool:
    return bool(_observers) or bool(_pass_observers)


def starting(task: Any, roots: Any) -> bool:
    """A pass is about to run (called by GraphTask when `watching()`): the pass observers hear
    of it, and when steps are observed, the task's `call_function` reports each node it runs.
    Returns whether it does (the steps then show every gradient as a tensor)."""
    for callback in list(_pass_observers):
        callback("pass", task=task, roots=tuple(roots))
    if not _observers:
        return False
    task.call_function = reporting(task.call_function)
    return True


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
