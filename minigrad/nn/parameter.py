"""Parameter: a tensor that a Module registers as one of its learnable weights."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import _dtype
from ..tensor import Tensor, tensor_of


class Parameter(Tensor):
    """A leaf tensor that requires grad by default. Assigning one to a Module attribute
    registers it, so `parameters()` finds it. It shares values and version counter with the
    tensor it wraps, as in PyTorch; results of operations on it are plain Tensors."""

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = tensor_of(np.empty((0,), dtype=_dtype.get_default_dtype().numpy))
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        super().__init__(data._data, requires_grad=requires_grad)
        self._version_counter = data._version_counter

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, protocol: int) -> Any:
        return (_rebuild_parameter, (self._data, self._requires_grad))

    def __deepcopy__(self, memo: dict) -> Parameter:  # as PyTorch's: without .grad
        new = memo[id(self)] = _rebuild_parameter(self._data.copy(), self._requires_grad)
        return new


def _rebuild_parameter(data: np.ndarray, requires_grad: bool) -> Parameter:
    return Parameter(tensor_of(data), requires_grad)


def zero_grads(params: Iterable[Tensor], set_to_none: bool = True) -> None:
    """What Module.zero_grad and Optimizer.zero_grad do: `.grad = None` by default, or the
    gradient zeroed in place (cut from any graph of the backward first, as PyTorch does)."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
            continue
        if param.grad.grad_fn is not None:
            param.grad.detach_()
        else:
            param.grad.requires_grad_(False)
        param.grad.zero_()
