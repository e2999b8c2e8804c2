"""Anomaly detection (`torch.autograd.detect_anomaly`), a debugging mode.

While it is on, every node of the graph keeps the Python stack of the forward call that made it.
When running a node fails during backward, a warning shows that stack before the error goes on:
the error then points at a line of your forward code, not only at a line inside the engine. With
`check_nan` (the default), a node whose backward returns NaN fails too. PyTorch's behaviour and
wording throughout; the switch is global, as PyTorch's is (the node running is per thread)."""
from __future__ import annotations

import threading
import traceback
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np

ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and "
                   "should only be enabled for debugging.")
TRACEBACK_KEY = "traceback_"  # where PyTorch keeps the stack in `node.metadata`
PARENT_KEY = "parent_"  # and, for a node made by a backward, the node whose backward made it
_MINIGRAD = str(Path(__file__).resolve().parent.parent)


class _State:
    enabled = False
    check_nan = True


class _PerThread(threading.local):
    running: Any = None  # the node whose backward is running, in a pass under anomaly detection


state = _State()
_thread = _PerThread()
# Told when the mode turns on or off: function.links_in_full_while_modes_are_on, which sends
# the nodes made meanwhile through the path that records their stack (this module sits below)
on_change: list = []


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on."""
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection, when on, also treats NaN in a backward's result as an error."""
    return state.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off, without a warning (what set_detect_anomaly calls)."""
    state.enabled, state.check_nan = bool(enabled), bool(check_nan)
    for told in on_change:
        told()


class detect_anomaly:  # noqa: N801 - PyTorch's name
    """`with detect_anomaly():` turns it on inside the block (and warns that it is slow)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        self.check_nan = check_nan
        warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc_info: Any) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """`set_detect_anomaly(True)` turns it on (or off) at once; used as `with`, the previous
    setting comes back at the end of the block."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info: Any) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def record_forward_stack(node: Any) -> None:
    """Keep, in `node.metadata`, the stack of the forward call that is making `node`. The frames
    of the operation itself (inside minigrad) are left out, as PyTorch's are C++."""
    frames = traceback.extract_stack()
    while frames and frames[-1].filename.startswith(_MINIGRAD):
        frames.pop()
    node.metadata[TRACEBACK_KEY] = traceback.format_list(frames)
    if _thread.running is not None:  # made by a backward (create_graph): remember whose
        node.metadata[PARENT_KEY] = _thread.running


def checking(run_node: Callable) -> Callable:
    """`run_node` for a backward pass under anomaly detection: a failing node first warns with
    the stack of its forward call, and (with check_nan) a NaN in what it returns is an error."""
    check_nan = state.check_nan

    def run_node_checked(node: Any, grads: list) -> tuple:
        outer, _thread.running = _thread.running, node
        try:
            grad_inputs = run_node(node, grads)
            if check_nan:
                _refuse_nan(node, grad_inputs)
        except Exception:
            _warn_forward_stacks(node)
            raise
        finally:
            _thread.running = outer
        return grad_inputs

    return run_node_checked


def _refuse_nan(node: Any, grad_inputs: tuple) -> None:
    for i, (grad, (child, _)) in enumerate(zip(grad_inputs, node.next_functions)):
        if (grad is not None and child is not None and grad._data.dtype.kind == "f"
                and np.isnan(grad._data).any()):
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")


def _warn_forward_stacks(node: Any) -> None:
    """The failing node's forward stack; then, for a node that a backward made, the stack of
    the node whose backward made it, and so on up (one warning each, as PyTorch)."""
    metadata = node._metadata or {}
    stack = metadata.get(TRACEBACK_KEY)
    if stack is None:
        warnings.warn(f"Error detected in {node.name()}. No forward pass information available. "
                      "Enable detect anomaly during forward pass for more information.",
                      UserWarning, stacklevel=3)
        return
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the "
                  "error:\n" + "".join(stack), UserWarning, stacklevel=3)
    parent = metadata.get(PARENT_KEY)
    while parent is not None:
        metadata = parent._metadata or {}
        stack = metadata.get(TRACEBACK_KEY)
        if stack is None:
            break
        warnings.warn(f"\n\nPrevious calculation was induced by {parent.name()}. Traceback of "
                      "forward call that induced the previous calculation:\n" + "".join(stack),
                      UserWarning, stacklevel=3)
        parent = metadata.get(PARENT_KEY)
