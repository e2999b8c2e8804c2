"""Choosing elements by a mask or by position: masked_fill, masked_select, triu, tril and
index_select. A chosen element's gradient goes back where it came from; an element replaced
by a fill value gets none."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype
from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .indexing import IndexAdd
from .operands import wrapped_number
from .pointwise import where
from .shape import _dims


class MaskedFill(Function):
    """where(mask, value, a): the gradient goes to a where the mask is off, to a 0-d tensor
    value (summed) where it is on"""
    node_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, a, mask, value):
        ctx.mask = mask
        return tensor_of(np.where(mask._data, value._data.astype(a._data.dtype), a._data))

    @staticmethod
    def backward(ctx, grad):
        grad_value = None
        if ctx.needs_input_grad[2]:
            grad_value = where(ctx.mask, grad, 0.0).sum()
        return masked_fill(grad, ctx.mask, 0), None, grad_value


class MaskedFillTensor(MaskedFill):
    node_name = "MaskedFillBackward1"


def masked_fill(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    if mask.dtype.name != "bool":
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.scalar_name.lower()}")
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")
    value = _dtype.fitting(value, a.dtype)
    if not isinstance(value, Tensor):
        return MaskedFill.apply(a, mask, wrapped_number(value, a._data.dtype))
    return MaskedFillTensor.apply(a, mask, value)


class MaskedSelect(Function):
    """The elements where the mask is on, as a 1-d tensor; the gradient goes back to them"""
    node_name = "MaskedSelectBackward0"

    @staticmethod
    def forward(ctx, a, mask):
        shape = np.broadcast_shapes(a.shape, mask.shape)
        ctx.shape, ctx.key = a.shape, np.broadcast_to(mask._data, shape)
        ctx.expanded = shape != a.shape
        return tensor_of(np.broadcast_to(a._data, shape)[ctx.key])

    @staticmethod
    def backward(ctx, grad):
        # written, not added, into zeros (PyTorch's masked_scatter_): a gradient of -0 stays -0
        full = MaskedScatter.apply(grad, ctx.key, ctx.key.shape, False)
        return (full.sum_to_size(ctx.shape) if ctx.expanded else full), None


class MaskedScatter(IndexAdd):
    """masked_select's backward, as PyTorch's: zeros(...).masked_scatter_(mask, grad);
    differentiated again, the masked_select"""
    node_name = "MaskedScatterBackward0"

    @staticmethod
    def backward(ctx, grad):
        return MaskedSelect.apply(grad, tensor_of(ctx.key)), None, None, None


def masked_select(a: Tensor, mask: Tensor) -> Tensor:
    if mask.dtype.name != "bool":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    return MaskedSelect.apply(a, mask)


class Triu(Function):
    """The upper (or lower) triangle, from `diagonal` on; the gradient keeps the same one"""
    node_name = "TriuBackward0"

    @staticmethod
    def forward(ctx, a, diagonal, upper=True):
        ctx.diagonal, ctx.upper = diagonal, upper
        return tensor_of((np.triu if upper else np.tril)(a._data, diagonal))

    @staticmethod
    def backward(ctx, grad):
        return triangle(grad, ctx.upper, ctx.diagonal), None, None


class Tril(Triu):
    node_name = "TrilBackward0"


def triangle(a: Tensor, upper: bool, diagonal: int = 0) -> Tensor:
    """triu (upper) or tril of the last two dimensions."""
    if a.ndim < 2:
        raise RuntimeError(f"{'triu' if upper else 'tril'}: input tensor must have at least 2 "
                           "dimensions")
    return (Triu if upper else Tril).apply(a, diagonal, upper)


class IndexSelect(Function):
    """a's slices at `index` along `dim`; each slice's gradient is added back where it came
    from"""
    node_name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx, a, dim, index):
        key = (slice(None),) * dim + (index,)
        ctx.key, ctx.shape = key, a.shape
        return tensor_of(a._data[key])

    @staticmethod
    def backward(ctx, grad):
        return IndexSelectBackward.apply(grad, ctx.key, ctx.shape), None, None


class IndexSelectBackward(IndexAdd):
    """index_select's backward, as PyTorch's: zeros(...).index_add_(dim, index, grad);
    differentiated again, the index_select"""
    node_name = "IndexAddBackward0"

    @staticmethod
    def backward(ctx, grad):
        return IndexSelect.apply(grad, len(ctx.key) - 1, ctx.key[-1]), None, None, None


def index_select(a: Tensor, dim: int, index: Tensor) -> Tensor:
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    (d,) = _dims(dim, a.ndim) or (0,)
    positions = index._data.reshape(-1)
    size = a.shape[d] if a.ndim else 1
    bad = positions[(positions < 0) | (positions >= size)]
    if bad.size and a.ndim == 2 and d == 1:  # PyTorch's kernel for the columns of a matrix
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(bad[0])} "
                           f"axis_dim={size}")
    if bad.size:
        raise IndexError("index out of range in self")
    if a.ndim == 0:
        return IndexSelect.apply(a.reshape(1), 0, positions).reshape(index.shape)
    return IndexSelect.apply(a, d, positions)

