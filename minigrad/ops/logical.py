"""Truth values without gradients: logical_and/or/xor/not, all and any (along dims too) and
isclose. Results are bool tensors (all/any of uint8 stay uint8, as in PyTorch)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor, tensor_of
from .shape import _dims


def _values(x: Any) -> Any:
    return x._data if isinstance(x, Tensor) else x


def logical(a: Tensor, b: Any, op: Any) -> Tensor:
    """logical_and/or/xor: each operand's non-zero elements count as True."""
    return tensor_of(np.asarray(op(_values(a) != 0, _values(b) != 0)))


def logical_not(a: Tensor) -> Tensor:
    return tensor_of(np.asarray(a._data == 0))


def all_or_any(a: Tensor, name: str, dim: Any = None, keepdim: bool = False) -> Tensor:
    """`a.all()` / `a.any()`, over everything or along `dim` (an int or a tuple of ints)."""
    axes = None if dim is None else (_dims(dim, a.ndim) or None)
    out = getattr(np, name)(a._data != 0, axis=axes, keepdims=keepdim and axes is not None)
    return tensor_of(np.asarray(out, dtype=np.uint8 if a._data.dtype == np.uint8 else bool))


def isclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """|a - b| <= atol + rtol * |b|, element-wise."""
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{a.dtype.scalar_name} did not match {b.dtype.scalar_name}")
    return tensor_of(np.asarray(np.isclose(a._data, b._data, rtol=rtol, atol=atol,
                                        equal_nan=equal_nan)))
