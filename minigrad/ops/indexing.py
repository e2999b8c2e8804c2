"""Indexing: reading `a[key]` (a Select or Slice per dimension, as PyTorch records basic
indexing, or one Index for arrays and masks) and writing `a[key] = value` (CopySlices). Each
gradient value goes back to the position it was read from or written to."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .selection import where
from .shape import Unsqueeze, _dims, _view_of, cat, expand_error, stack


class Index(Function):
    """a[key]: each gradient value goes back to the position it was read from"""
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, a, key):
        key = key if isinstance(key, tuple) else (key,)
        check_advanced_key(a.shape, key)
        ctx.key, ctx.shape = key, a.shape
        # A trailing `...` makes numpy return a 0-d view, not a scalar (which would lose dtype)
        whole = key if any(k is Ellipsis for k in key) else (*key, Ellipsis)
        return _view_of(a._data[whole], a)

    @staticmethod
    def backward(ctx, grad):
        return IndexPutImpl.apply(grad, ctx.key, ctx.shape), None


class _BasicIndex(Index):
    """A view that reads each position once: its gradient is copied into zeros, as PyTorch's
    select_backward/slice_backward do (adding it to 0.0 would turn a -0.0 into 0.0)"""
    _backward_op: Any = None  # PyTorch's op for it, when it has one of its own

    @staticmethod
    def backward(ctx, grad):
        return (ctx._forward_cls._backward_op or IndexAdd).apply(grad, ctx.key, ctx.shape,
                                                                  False), None


class Select(_BasicIndex):
    node_name = "SelectBackward0"


class Slice(_BasicIndex):
    node_name = "SliceBackward0"


class Alias(_BasicIndex):
    """a[...]: the whole tensor, as a new view"""
    node_name = "AliasBackward0"


class AsStrided(_BasicIndex):
    """A view read back out of its base after an in-place change rewrote the base; where the
    view repeats positions (an expanded one), their gradients add up"""
    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, a, key):
        cells = _cells(a._data)
        flat = np.ravel_multi_index(key, cells.shape)
        ctx.key, ctx.shape, ctx.repeats = key, a.shape, np.unique(flat).size < flat.size
        return _view_of(cells[key], a)

    @staticmethod
    def backward(ctx, grad):
        return IndexAdd.apply(grad, ctx.key, ctx.shape, ctx.repeats), None


class Unbind(Function):
    """t.unbind(dim), and so `for row in t`: one node whose outputs are views, one per index
    along `dim`; the gradients of the views are stacked back"""
    node_name = "UnbindBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim, ctx.dtype = dim, a._data.dtype
        ctx.view_shape = a.shape[:dim] + a.shape[dim + 1:]
        views = tuple(_view_of(a._data[(slice(None),) * dim + (i, Ellipsis)], a)
                      for i in range(a.shape[dim]))
        for view in views:  # PyTorch refuses to change such a view in place (_inplace.py)
            view._multi_output_view = True
        return views

    @staticmethod
    def backward(ctx, *grads):
        # a view that is gone by now (`a, b = t.unbind(1)[:2]`) cannot be materialized by the
        # engine: its zeros are made here
        zero = np.zeros(ctx.view_shape, ctx.dtype)
        return stack([tensor_of(zero) if g is None else g for g in grads], ctx.dim), None


def _cells(a: np.ndarray) -> np.ndarray:
    """`a` as a key of position arrays addresses it (AsStrided's, CopySlices' from
    _inplace.py): a 0-d `a`, which numpy will not index with arrays, as its one element along
    one dimension (a view: writing into it writes into `a`)."""
    return a.reshape(1) if a.ndim == 0 else a


def _read(grad: Tensor, key: tuple) -> Tensor:
    """grad[key] for a key of `_cells`'s positions."""
    return Index.apply(grad.reshape(1) if grad.ndim == 0 else grad, key)


def unbind(a: Tensor, dim: int = 0) -> tuple:
    if a.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return Unbind.apply(a, _dims(dim, a.ndim)[0])


class IndexAdd(Function):
    """zeros(shape) with `grad` added at `key` (repeated positions add up), or written there
    when `accumulate` is False (a key that names each position once)"""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, grad, key, shape, accumulate=True):
        ctx.key = key
        out = np.zeros(shape, dtype=grad._data.dtype)
        if accumulate:
            np.add.at(_cells(out), key, grad._data)
        else:
            _cells(out)[key] = grad._data
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        return _read(grad, ctx.key), None, None, None


class IndexPutImpl(IndexAdd):
    """a[key]'s backward, PyTorch's index_backward: _index_put_impl_ into zeros"""
    node_name = "IndexPutImplBackward0"


class SelectBackward(IndexAdd):
    """select's backward as an op of its own (select_backward); differentiated again, the
    select"""
    node_name = "SelectBackwardBackward0"

    @staticmethod
    def backward(ctx, grad):
        return Select.apply(grad, ctx.key), None, None, None


class SliceBackward(IndexAdd):
    """a slice's backward as an op of its own (slice_backward); differentiated again, the
    slice"""
    node_name = "SliceBackwardBackward0"

    @staticmethod
    def backward(ctx, grad):
        return Slice.apply(grad, ctx.key), None, None, None


Select._backward_op, Slice._backward_op = SelectBackward, SliceBackward


ERR_INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation.")

ERR_INDEX_TYPE = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                  "are valid indices (got {})")


def _plain_key(item: Any) -> Any:
    """The numpy index for one entry of a key, refused where PyTorch refuses it."""
    if isinstance(item, float):
        raise IndexError(ERR_INDEX_TYPE.format("float"))
    if isinstance(item, slice) and item.step is not None and item.step < 0:
        raise ValueError("step must be greater than zero")  # numpy would reverse
    if isinstance(item, Tensor):  # a 0-d integer tensor indexes like an int, as in PyTorch
        return int(item._data) if item.ndim == 0 and item._data.dtype.kind in "iu" else item._data
    if isinstance(item, (list, tuple)):
        return np.asarray([i._data if isinstance(i, Tensor) else i for i in item])
    return item


def index(a: Tensor, key: Any) -> Tensor:
    """Basic indexing is done one dimension at a time (a Select or Slice per dimension, as
    PyTorch records it); anything advanced is one Index."""
    # PyTorch reads a tuple key apart from a lone index: a slice that keeps its whole
    # dimension records nothing then (a[:, :2] is one SliceBackward0, a[0:3, ...] of 3 rows
    # an AliasBackward0), and a 0-d tensor refuses it by counting indices.
    in_tuple = isinstance(key, tuple)
    key = key if in_tuple else (key,)
    if a.ndim == 0 and not in_tuple:  # before a 0-d integer tensor becomes an int
        _check_key_of_0d(key)
    key = tuple(_plain_key(k) for k in key)
    if any(_is_advanced(k) for k in key):
        if any(_is_int(k) for k in key):  # PyTorch selects integers first (numpy would not)
            basic = tuple(part for k in key for part in (
                (slice(None),) * _dims_spanned(k) if _is_advanced(k) else (k,)))
            rest = tuple(slice(None) if k is None or isinstance(k, slice) else k
                         for k in key if not _is_int(k))
            return Index.apply(index(a, basic), rest)
        return Index.apply(a, key)
    alias = all(k is Ellipsis for k in key)  # a[...]
    if sum(k is not None and k is not Ellipsis for k in key) > a.ndim:
        raise IndexError(f"too many indices for tensor of dimension {a.ndim}")
    if Ellipsis in key:
        at = key.index(Ellipsis)
        fill = a.ndim - sum(k is not None and k is not Ellipsis for k in key)
        key = key[:at] + (slice(None),) * fill + key[at + 1:]
    out, dim, a_dim = a, 0, 0  # dim counts in `out`, a_dim in `a` (for messages)
    for k in key:
        if k is None:
            out = Unsqueeze.apply(out, dim)
            dim += 1
            continue
        if isinstance(k, slice):
            if k != slice(None) and not (in_tuple and _keeps_all(k, out.shape[dim])):
                out = Slice.apply(out, (slice(None),) * dim + (k,))
            dim += 1
        else:
            size = out.shape[dim]
            if not -size <= int(k) < size:
                raise IndexError(f"index {int(k)} is out of bounds for dimension {a_dim} with "
                                 f"size {size}")
            out = Select.apply(out, (slice(None),) * dim + (int(k),))
        a_dim += 1
    if out is a:  # a[:] or a[...]: still a new tensor, as in PyTorch
        whole = alias or a.ndim == 0 or in_tuple
        out = Alias.apply(a, (Ellipsis,)) if whole else Slice.apply(a, (slice(None),))
    return out


def _keeps_all(k: slice, size: int) -> bool:
    """As PyTorch's indexing tests it, on the slice as written: start 0, step 1, stop past the
    end (a[-5:] of 3 rows is still a SliceBackward0)."""
    return k.start in (None, 0) and k.step in (None, 1) and (k.stop is None or k.stop >= size)


def _check_key_of_0d(key: tuple) -> None:
    """PyTorch's words for an integer or a slice applied to a 0-d tensor."""
    for k in key:
        if isinstance(k, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if _is_int(k):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")


def check_advanced_key(shape: tuple, key: tuple) -> None:
    """PyTorch's messages for masks of the wrong shape, indices out of range and index tensors
    of a wrong dtype (numpy's own would name axes and arrays)."""
    if any(k is Ellipsis for k in key):
        return  # left to numpy
    dim = 0
    for k in key:
        if k is None or isinstance(k, (bool, np.bool_)):
            continue
        if not isinstance(k, np.ndarray):  # a slice
            dim += 1
        elif k.dtype == bool:
            for j, (m, s) in enumerate(zip(k.shape, shape[dim:])):
                if m != s:
                    raise IndexError(
                        f"The shape of the mask [{', '.join(map(str, k.shape))}] at index {j} "
                        f"does not match the shape of the indexed tensor "
                        f"[{', '.join(map(str, shape))}] at index {dim + j}")
            dim += k.ndim
        elif k.dtype.kind not in "iu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        else:
            size = shape[dim] if dim < len(shape) else 0
            wrong = k[(k < -size) | (k >= size)]
            if wrong.size:  # PyTorch says dimension 0 whichever it is
                raise IndexError(f"index {int(wrong.flat[0])} is out of bounds for dimension 0 "
                                 f"with size {size}")
            dim += 1


def _dims_spanned(k: Any) -> int:
    """How many dimensions an advanced index consumes: a mask its own, a bool scalar none."""
    if not isinstance(k, np.ndarray):
        return 0
    return k.ndim if k.dtype == bool else 1


def _is_advanced(k: Any) -> bool:
    return isinstance(k, (np.ndarray, bool, np.bool_))


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


class CopySlices(Function):
    """a[key] = value: the overwritten positions send no gradient to a's old values;
    value gets the gradient of the positions it was written to"""
    node_name = "CopySlices"
    node_qualname = "torch::autograd::CopySlices"

    @staticmethod
    def forward(ctx, a, key, value, overlapping=False):
        ctx.key, ctx.value_shape, ctx.overlapping = key, value.shape, overlapping
        out = a._data.copy()
        try:
            _cells(out)[key] = value._data
        except ValueError:
            raise _assignment_error(a, key, value) from None
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        if ctx.overlapping:  # PyTorch writes the gradient into the view's positions: refused
            raise RuntimeError(ERR_INTERNAL_OVERLAP)
        kept = np.ones(grad.shape, dtype=bool)
        _cells(kept)[ctx.key] = False
        grad_value = _read(grad, ctx.key)
        if grad_value.numel() == int(np.prod(ctx.value_shape)) and grad_value.ndim < len(
                ctx.value_shape):
            grad_value = grad_value.reshape(ctx.value_shape)
        return where(tensor_of(kept), grad, 0.0), None, grad_value, None


def _assignment_error(a: Tensor, key: Any, value: Tensor) -> RuntimeError:
    """PyTorch's error for `a[key] = value` with a value that does not fit: arrays and masks
    broadcast the value to what they pick; slices and integers expand it into the view they
    pick, after dropping its leading dimensions of size 1."""
    target = a._data[key].shape
    if is_advanced(key):
        return RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} cannot "
                            f"be broadcast to indexing result of shape {list(target)}")
    shape = tuple(value.shape)
    while shape and shape[0] == 1:
        shape = shape[1:]
    return expand_error(shape, target, value.dtype)


class WriteThroughExpanded(Function):
    """`e[indices] = value` on an expanded view e: PyTorch writes into the memory e's elements
    share, and records the base's new values as CopySlices. `written` holds the base position
    of each element written (a position once per element of e that shares it); forward is given
    the base with the values already there. value gets the base's gradient at each, so a value
    written into two rows that share memory gets its one element's gradient twice, as in
    PyTorch. The base's old values get the gradient where nothing was written, unless the view
    written into (what is left of e after its integers and slices) has elements that share
    memory (`overlapping`): PyTorch's backward then writes into it and refuses."""
    node_name = "CopySlices"
    node_qualname = "torch::autograd::CopySlices"

    @staticmethod
    def forward(ctx, base, value, written, overlapping):
        ctx.written, ctx.overlapping, ctx.value_shape = written, overlapping, value.shape
        return tensor_of(base._data.copy())

    @staticmethod
    def backward(ctx, grad):
        grad_base = None
        if ctx.needs_input_grad[0]:
            if ctx.overlapping:
                raise RuntimeError(ERR_INTERNAL_OVERLAP)
            kept = np.ones(grad.shape, dtype=bool)
            _cells(kept)[ctx.written] = False
            grad_base = where(tensor_of(kept), grad, 0.0)
        grad_value = None
        if ctx.needs_input_grad[1]:
            grad_value = _read(grad, ctx.written)
            if grad_value.numel() == int(np.prod(ctx.value_shape)) and grad_value.ndim < len(
                    ctx.value_shape):
                grad_value = grad_value.reshape(ctx.value_shape)
        return grad_base, grad_value, None, None


class IndexPut(CopySlices):
    """a[mask_or_indices] = value: as CopySlices, recorded under PyTorch's index_put_ name"""
    node_name = "IndexPutBackward0"
    node_qualname = None


def is_advanced(key: Any) -> bool:
    """Whether indexing with `key` picks elements by arrays or masks (a copy, not a view)."""
    key = key if isinstance(key, tuple) else (key,)
    return any(_is_advanced(k) for k in key)


def as_positions(shape: tuple, key: Any) -> Any:
    """An advanced key that also holds integers means something else to numpy than to PyTorch
    (see `index`): for assignment, spell it as the arrays of positions PyTorch would pick."""
    if not any(_is_int(k) for k in (key if isinstance(key, tuple) else (key,))):
        return key
    positions = index(tensor_of(np.arange(int(np.prod(shape))).reshape(shape)), key)._data
    return np.unravel_index(positions, shape)


class Split(Function):
    """split(n) and chunk(n): one node whose outputs are views, the pieces along `dim`, as for
    unbind (an in-place change of a piece is refused); their gradients are concatenated back"""
    node_name = "SplitBackward0"

    @staticmethod
    def forward(ctx, a, sizes, dim):
        ctx.dim, ctx.dtype, ctx.shape, ctx.sizes = dim, a._data.dtype, a.shape, sizes
        bounds = np.cumsum([0, *sizes]).tolist()
        pieces = tuple(_view_of(a._data[(slice(None),) * dim + (slice(lo, hi),)], a)
                       for lo, hi in zip(bounds, bounds[1:]))
        for piece in pieces:
            piece._multi_output_view = True
        return pieces

    @staticmethod
    def backward(ctx, *grads):
        shape, pieces = list(ctx.shape), []
        for g, size in zip(grads, ctx.sizes):
            if g is None:  # a piece that is gone by now got no gradient: zeros
                shape[ctx.dim] = size
                g = tensor_of(np.zeros(shape, ctx.dtype))
            pieces.append(g)
        return cat(pieces, ctx.dim), None, None


class SplitWithSizes(Split):
    """split([sizes])"""
    node_name = "SplitWithSizesBackward0"


def split(a: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Pieces of `split_size` along `dim` (the last may be shorter), or of the listed sizes."""
    dim = dim % max(a.ndim, 1)
    length = a.shape[dim]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        starts = range(0, length, step) if step else [0]
        sizes = [min(step, length - s) for s in starts]
        piece = Split
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != length:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {length} "
                               f"(input tensor's size at dimension {dim}), but got "
                               f"split_sizes={sizes}")
        piece = SplitWithSizes
    return piece.apply(a, tuple(sizes), dim)


def chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """At most `chunks` pieces of equal size (the last may be shorter), as PyTorch cuts them."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    length = a.shape[dim % max(a.ndim, 1)]
    return split(a, max(1, -(-length // chunks)), dim)
