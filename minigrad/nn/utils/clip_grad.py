"""Clipping gradients after backward and before the optimizer's step: scale them all so that
their joint norm is at most max_norm (clip_grad_norm_), or clamp each value (clip_grad_value_).
The arithmetic follows PyTorch's: each gradient's norm, the norm of those norms, then one
factor min(1, max_norm / (norm + 1e-6)) multiplied into every gradient in place."""
from __future__ import annotations

import types
import warnings
from collections.abc import Iterable
from typing import Any

from ... import _grad_mode
from ...creation import tensor
from ...linalg import vector_norm
from ...ops.shape import stack
from ...tensor import Tensor


def _listed(parameters: Any) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        return [parameters]
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = list(parameters)
    if is_generator and not parameters:
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                      UserWarning, stacklevel=3)
    return parameters


def get_total_norm(tensors: Iterable[Tensor], norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: Any = None) -> Tensor:
    """The norm of all the tensors' elements taken together."""
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    if not tensors:
        return tensor(0.0)
    total = vector_norm(stack([vector_norm(t, norm_type) for t in tensors]), norm_type)
    if error_if_nonfinite and (total.isnan() | total.isinf()).item():
        raise RuntimeError(f"The total norm of order {float(norm_type)} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To disable this "
                           "error and scale the gradients by the non-finite norm anyway, set "
                           "`error_if_nonfinite=False`")
    return total


def clip_grad_norm_(parameters: Any, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: Any = None) -> Tensor:
    """Scale the gradients in place so that their joint norm is at most max_norm; returns the
    norm they had."""
    parameters = _listed(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    with _grad_mode.no_grad():
        total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
        if grads:
            factor = (max_norm / (total + 1e-6)).clamp(max=1.0)
            for g in grads:
                g.mul_(factor)
    return total


def clip_grad_value_(parameters: Any, clip_value: float, foreach: Any = None) -> None:
    """Clamp every gradient value into [-clip_value, clip_value], in place."""
    with _grad_mode.no_grad():
        for p in _listed(parameters):
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)
