"""Parameter: a tensor that a Module registers as one of its learnable weights."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype
from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad by default. Assigning one to a Module attribute
    registers it, so `parameters()` finds it. It shares values and version counter with the
    tensor it wraps, as in PyTorch; results of operations on it are plain Tensors."""

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = Tensor(np.empty((0,), dtype=_dtype.get_default_dtype().numpy))
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


def _rebuild_parameter(data: np.ndarray, requires_grad: bool) -> Parameter:
    return Parameter(Tensor(data), requires_grad)
