"""Watching the backward pass step by step: the step-by-step diagrams (viz.backward_steps)
are drawn from these events of a real `backward()`."""
from __future__ import annotations

from typing import Any, Callable

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


def _notify(event: str, **details: Any) -> None:
    for callback in list(_observers):
        callback(event, **details)
