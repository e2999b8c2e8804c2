"""Writing into slices picked by an index along one dimension: index_add (source's slices added,
repeated positions adding up), index_copy (source's slices written) and index_fill (one value
written); and index_put, the
out-of-place `a[indices] = values`. Their gradients, as PyTorch's:
the input's passes through (but where index_fill wrote), the source's is read back with
index_select, a filled value's is the sum over the slices it went to."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype, _grad_mode
from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .indexing import Index, IndexPut, check_advanced_key
from .masking import index_select
from .operands import type_name
from .shape import _dims


class IndexAdd(Function):
    """a with alpha * source's slices added at `index` along `dim`"""
    node_name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx, a, dim, index, source, alpha):
        ctx.dim, ctx.index, ctx.alpha = dim, index, alpha
        out = a._data.copy()
        src = source._data if alpha == 1 else source._data * out.dtype.type(alpha)
        moved, src = np.moveaxis(out, dim, 0), np.moveaxis(src, dim, 0)
        for i, position in enumerate(index._data.tolist()):  # in order, as PyTorch adds them
            moved[position] = moved[position] + src[i]
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        grad_source = None
        if ctx.needs_input_grad[3]:
            grad_source = index_select(grad, ctx.dim, ctx.index)
            grad_source = grad_source if ctx.alpha == 1 else grad_source * ctx.alpha
        return grad, None, None, grad_source, None


def _word(t: Tensor) -> str:
    return t.dtype.tensor_type.replace("Tensor", "")


def _as_list(shape: tuple) -> str:
    return f"[{', '.join(map(str, shape))}]"


def index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any = 1) -> Tensor:
    (d,) = _dims(dim, a.ndim) or (0,)
    if index.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: "
                         f"{index.ndim} with type: {_word(index)} and size: "
                         f"{_as_list(index.shape)}")
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{_word(index)}")
    if source.dtype is not a.dtype:
        raise RuntimeError(f"index_add_(): self ({_word(a)}) and source ({_word(source)}) must "
                           "have the same scalar type")
    if a.ndim != source.ndim or any(s != t for i, (s, t) in enumerate(zip(a.shape, source.shape))
                                    if i != d):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {_as_list(a.shape)} "
                           f"source.shape = {_as_list(source.shape)}")
    if index.numel() != source.shape[d]:
        raise RuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be equal "
                           f"to source.size(dim): ({source.shape[d]}), for dim: {d}")
    for position in index._data.reshape(-1).tolist():
        if not 0 <= position < a.shape[d]:
            raise RuntimeError(f"index {position} is out of bounds for dimension {d} with size "
                               f"{a.shape[d]}")
    return IndexAdd.apply(a, d, index.reshape(-1), source, alpha)


class IndexCopy(Function):
    """a with source's slices written at `index` along `dim` (a later index wins a position):
    the overwritten slices send a its gradient back as zero, source gets index_select's"""
    node_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx, a, dim, index, source):
        ctx.dim, ctx.index = dim, index
        out = a._data.copy()
        moved, src = np.moveaxis(out, dim, 0), np.moveaxis(source._data, dim, 0)
        for i, position in enumerate(index._data.tolist()):  # in order: the last one stays
            moved[position] = src[i]
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        grad_a = grad.index_fill(ctx.dim, ctx.index, 0) if ctx.needs_input_grad[0] else None
        grad_source = None
        if ctx.needs_input_grad[3]:  # derivatives.yaml's, expand_as(source) included
            grad_source = index_select(grad, ctx.dim, ctx.index)
            grad_source = grad_source.expand(grad_source.shape)
        return grad_a, None, None, grad_source


def index_copy(a: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    (d,) = _dims(dim, a.ndim) or (0,)
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    if index.dtype is not _dtype.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{_word(index)}")
    if source.dtype is not a.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but "
                           f"got (self) {_word(a)} and (source) {_word(source)}")
    if a.ndim and source.ndim and a.ndim != source.ndim:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.ndim}), "
                         f"destination dimensionality ({a.ndim})")
    sliced = [n for i, n in enumerate(a.shape) if i != d]
    source_sliced = [n for i, n in enumerate(source.shape) if i != d]
    if sliced != source_sliced:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. Destination "
            f"slice shape: {' '.join(map(str, sliced))} at dimension {d} and source slice "
            f"shape: {' '.join(map(str, source_sliced))} at dimension 0.")
    count = source.shape[d] if source.ndim else 1
    if index.numel() != count:
        raise IndexError(f"index_copy_(): Number of indices ({index.numel()}) should be equal to "
                         f"source.size(dim) ({count})")
    for position in index._data.reshape(-1).tolist():
        if not 0 <= position < (a.shape[d] if a.ndim else 1):
            raise IndexError(f"index_copy_(): index {position} is out of bounds for dimension "
                             f"{d} with size {a.shape[d] if a.ndim else 1}")
    return IndexCopy.apply(a, d, index.reshape(-1), source)


class IndexFill(Function):
    """a with `value` (a number) written into the slices at `index` along `dim`"""
    node_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx, a, dim, positions, value, named=None):
        ctx.dim, ctx.positions, ctx.named = dim, positions, named
        out = a._data.copy()
        np.moveaxis(out, dim, 0)[positions] = np.asarray(
            value._data if isinstance(value, Tensor) else value).astype(out.dtype)
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        grad_a = IndexFill.apply(grad, ctx.dim, ctx.positions, 0) if ctx.needs_input_grad[0] \
            else None
        grad_value = None
        if ctx.needs_input_grad[3]:  # each filled slice once, however often index names it;
            # as PyTorch, by the positions as named (a negative one fails here, as there)
            picked = tensor_of(np.unique(ctx.named))
            grad_value = index_select(grad, ctx.dim, picked).sum()
        return grad_a, None, None, grad_value, None


class IndexFillTensor(IndexFill):
    """index_fill with a 0-d tensor as the value, which gets a gradient"""
    node_name = "IndexFillBackward1"


def index_fill(a: Tensor, dim: int, index: Tensor, value: Any, *, in_place: bool = False
               ) -> Tensor:
    (d,) = _dims(dim, a.ndim) or (0,)
    if index.dtype.name != "int64":
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")
    size = a.shape[d] if a.ndim else 1
    positions = index._data.reshape(-1)
    for position in positions.tolist():
        if not -size <= position < size:
            raise IndexError(f"index {position} is out of bounds for dimension {d} with size "
                             f"{size}")
    named, positions = positions, np.where(positions < 0, positions + size, positions)
    value = _dtype.fitting(value, a.dtype)
    if isinstance(value, Tensor):
        if value.requires_grad and _grad_mode.state.enabled and not a.dtype.is_floating_point \
                and not in_place:  # a's dtype cannot carry the value's gradient (in place,
            # PyTorch records the fill all the same and fails at backward)
            raise RuntimeError("Autograd not support dtype: "
                               + a.dtype.tensor_type.removesuffix("Tensor"))
        return IndexFillTensor.apply(a, d, positions, value, named)
    return IndexFill.apply(a, d, positions, value)


class IndexPutAccumulate(Function):
    """index_put(..., accumulate=True): values added at the positions (repeated ones adding up,
    in order); a's gradient passes through whole, values' is read back at the positions"""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, a, key, values):
        ctx.key = key
        out = a._data.copy()
        np.add.at(out, key, np.broadcast_to(values._data, out[key].shape))
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        return grad, None, Index.apply(grad, ctx.key)


def index_put(a: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """`a.index_put((rows, cols), values)`: a copy of a with values written (or added) at the
    positions the index tensors pick, as `a[rows, cols] = values` writes them in place."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of Tensors, "
                        f"not {type_name(indices)}")
    for i, index in enumerate(indices):
        if not isinstance(index, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type_name(index)}")
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put(): argument 'values' (position 2) must be Tensor, not "
                        f"{type_name(values)}")
    key = tuple(i._data for i in indices)
    check_advanced_key(a.shape, key)
    if values.dtype is not a.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_word(a)} for the destination and {_word(values)} for the source.")
    picked = a._data[key].shape
    try:
        np.broadcast_shapes(values.shape, picked)
    except ValueError:
        raise RuntimeError(f"shape mismatch: value tensor of shape {_as_list(values.shape)} "
                           f"cannot be broadcast to indexing result of shape "
                           f"{_as_list(picked)}") from None
    return (IndexPutAccumulate if accumulate else IndexPut).apply(a, key, values)
