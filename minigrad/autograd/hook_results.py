"""What a hook may return in place of a gradient, checked as PyTorch checks it: a tensor hook's
replacement (node_call), a node hook's tuple of them (node_call), and a leaf's post-accumulate
hook, which may return nothing but None (accumulate)."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor


def checked_hook_result(hook: Any, grad: Any, result: Any) -> Any:
    """A tensor hook may replace the gradient, but only by a tensor like it: PyTorch's checks."""
    if grad is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    name = getattr(hook, "__name__", "<unknown>")
    if result.shape != grad.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if result.dtype is not grad.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {grad.type()} got "
                           f"{result.type()})")
    return result


def checked_hook_results(hook: Any, grads: tuple, results: Any) -> tuple:
    """A node's hook may replace its gradients by a tuple of as many, each like the one it
    replaces (or None)."""
    if not isinstance(results, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(results).__name__}'")
    if len(results) != len(grads):
        raise RuntimeError(f"hook '{getattr(hook, '__name__', '<unknown>')}' has returned an "
                           f"incorrect number of values (got {len(results)}, but expected "
                           f"{len(grads)})")
    return tuple(None if result is None else checked_hook_result(hook, grad, result)
                 for grad, result in zip(grads, results))
