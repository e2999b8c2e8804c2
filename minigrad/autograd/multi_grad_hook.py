"""`torch.autograd.graph.register_multi_grad_hook`: one hook over several tensors, called once per
backward pass. With mode "all", once the gradients of every tensor the pass reaches are in, with
None for the others; with mode "any", at the first of them. As PyTorch's: a gradient hook on each
tensor, and the number of calls to wait for asked of the running pass at its first call."""
from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from .._handles import RemovableHandle
from .accumulate import grad_accumulator
from .engine import CapturingTask, running
from .graph import Node

MODES = ("all", "any")


class _MultiHandle(RemovableHandle):
    """What register_multi_grad_hook returns: `remove()` takes every tensor's hook out."""

    def __init__(self, handles: tuple) -> None:  # noqa: D107 - no dict of hooks of its own
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors: Sequence[Any], fn: Callable, *,
                             mode: str = "all") -> _MultiHandle:
    if mode not in MODES:
        raise ValueError(f"Expects mode to be one of {MODES} but got {mode}")
    lock = threading.Lock()
    if mode == "any":
        ran: weakref.WeakSet = weakref.WeakSet()  # the passes that called fn

        def call_once(grad: Any) -> None:
            task = _current_task()
            with lock:
                if task in ran:
                    return
                ran.add(task)
            fn(grad)

        return _MultiHandle(tuple(t.register_hook(call_once) for t in tensors
                                  if t.requires_grad))
    nodes = [_node_of(t) for t in tensors]
    # Per pass (a pass that ends early, by an error, is forgotten with it): the tensors' hooks
    # called so far, and their gradients by position (None: not computed)
    calls: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    grads: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def hook_at(position: int) -> Callable:
        def hook(grad: Any) -> None:
            task = _current_task()
            with lock:
                done = calls.get(task, 0)
                calls[task] = done + 1
                grads.setdefault(task, [None] * len(tensors))[position] = grad
                if done + 1 < sum(_will_execute(task, node) for node in nodes):
                    return
                del calls[task]
                collected = grads.pop(task)
            fn(collected)
        return hook

    return _MultiHandle(tuple(t.register_hook(hook_at(i)) for i, t in enumerate(tensors)))


def _current_task() -> Any:
    task = running.task
    if task is None:
        raise AssertionError("expected this hook to be called inside a backward call")
    return task


def _node_of(tensor: Any) -> Node:
    """The node whose gradient hooks the tensor's hook runs with: its grad_fn, or a leaf's
    AccumulateGrad."""
    if tensor.grad_fn is not None:
        return tensor.grad_fn
    if not tensor.requires_grad:
        raise AssertionError("Expected gradient function to be set")
    return grad_accumulator(tensor)


def _will_execute(task: Any, node: Node) -> bool:
    """Whether this pass runs `node` (and so the hooks of the tensor it belongs to)."""
    if node not in task.dependencies:  # not in this pass's graph
        return False
    if not isinstance(task, CapturingTask):
        return True
    captured = node in task.targets and not task.accumulate  # autograd.grad's inputs
    if captured and not node.next_functions:  # a leaf's AccumulateGrad, as PyTorch refuses
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                           "currently running autograd.grad(). This is currently not supported.")
    return task.needed.get(node, False) or node in task.targets
