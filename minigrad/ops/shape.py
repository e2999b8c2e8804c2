"""Operations that move values around without computing new ones: views, indexing, stacking.
Their backward puts each gradient value back where its input value came from."""
from __future__ import annotations

import weakref
from typing import Any, Sequence

import numpy as np

from .._dtype import Size, from_numpy
from ..autograd.function import Function
from ..tensor import Tensor


def _view_of(data: np.ndarray, base: Tensor) -> Tensor:
    """A result that shares memory with `base` shares its version counter too."""
    out = Tensor(data)
    if np.shares_memory(data, base._data):
        out._version_counter = base._version_counter
        out._base = root = base._base if base._base is not None else base
        if root.requires_grad:  # an in-place change may rewrite this view's history later
            views = root.__dict__.setdefault("_views", [])
            if len(views) >= 16 and len(views) & (len(views) - 1) == 0:  # drop dead ones
                views[:] = [ref for ref in views if ref() is not None]
            views.append(weakref.ref(out))
    return out


def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    for d in dims:
        if not -max(ndim, 1) <= d < max(ndim, 1):
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {d})")
    return tuple(d % max(ndim, 1) for d in dims) if ndim else ()


class SumTo(Function):
    """Sums a broadcast gradient back to `shape`: the one place broadcasting is undone."""
    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        lead = a.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(shape) if s == 1 and a.shape[lead + i] != 1)
        return Tensor(a._data.sum(axis=axes, keepdims=True).reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape), None


def sum_to(a: Tensor, shape: Sequence[int]) -> Tensor:
    return a if tuple(a.shape) == tuple(shape) else SumTo.apply(a, tuple(shape))


class View(Function):
    """reshape/view: the gradient is reshaped back"""
    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        if int(np.prod(shape)) != a.numel() or shape.count(-1) > 0:
            raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of "
                               f"size {a.numel()}")
        try:
            return _view_of(np.reshape(a._data, shape, copy=False), a)
        except ValueError:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            ) from None

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class UnsafeView(View):
    """the reshape of a fresh copy (reshape of a non-contiguous tensor, folded matmul)"""
    node_name = "UnsafeViewBackward0"


def reshape(a: Tensor, shape: tuple) -> Tensor:
    """A view when the values' layout allows one, else a copy reshaped (as PyTorch does)."""
    if int(np.prod(shape)) == a.numel() and -1 not in shape:
        try:
            np.reshape(a._data, shape, copy=False)
        except ValueError:
            return UnsafeView.apply(Clone.apply(a), shape)
    return View.apply(a, shape)


class Expand(Function):
    """expand: broadcast values; their gradients add up"""
    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        shape = tuple(a.shape[i - len(shape) + a.ndim] if s == -1 else s
                      for i, s in enumerate(shape))
        try:
            return _view_of(np.broadcast_to(a._data, shape), a)
        except ValueError:
            raise RuntimeError(
                f"The expanded size of the tensor must match the existing size at non-singleton "
                f"dimension. Target sizes: [{', '.join(map(str, shape))}].  Tensor sizes: "
                f"[{', '.join(map(str, a.shape))}]") from None

    @staticmethod
    def backward(ctx, grad):
        return sum_to(grad, ctx.shape), None


class Permute(Function):
    """permute/.T: the gradient is permuted back"""
    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims = dims
        return _view_of(a._data.transpose(dims), a)

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(*np.argsort(ctx.dims).tolist()), None


class Transpose(Function):
    """transpose(d0, d1): swap back"""
    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, a, d0, d1):
        ctx.swap = (d0, d1)
        return _view_of(np.swapaxes(a._data, d0, d1) if a.ndim else a._data, a)

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.swap), None, None


class T(Function):
    """t(): transpose of a matrix"""
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        if a.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
        return _view_of(a._data.T, a)

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


class Squeeze(Function):
    """squeeze: put the size-1 dimensions back"""
    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, a, dims):
        ctx.shape = a.shape
        dims = tuple(d for d in dims if a.shape[d] == 1)
        return _view_of(np.squeeze(a._data, axis=dims), a)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class Unsqueeze(Function):
    """unsqueeze(d): remove the added dimension"""
    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        return _view_of(np.expand_dims(a._data, dim), a)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


class Index(Function):
    """a[key]: each gradient value goes back to the position it was read from"""
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, a, key):
        key = key if isinstance(key, tuple) else (key,)
        ctx.key, ctx.shape = key, a.shape
        # A trailing `...` makes numpy return a 0-d view, not a scalar (which would lose dtype)
        whole = key if any(k is Ellipsis for k in key) else (*key, Ellipsis)
        return _view_of(a._data[whole], a)

    @staticmethod
    def backward(ctx, grad):
        return IndexAdd.apply(grad, ctx.key, ctx.shape), None


class Select(Index):
    node_name = "SelectBackward0"


class Slice(Index):
    node_name = "SliceBackward0"


class AsStrided(Index):
    """A view read back out of its base after an in-place change rewrote the base"""
    node_name = "AsStridedBackward0"


class IndexAdd(Function):
    """zeros(shape) with `grad` added at `key` (repeated positions add up)"""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, grad, key, shape):
        ctx.key = key
        out = np.zeros(shape, dtype=grad._data.dtype)
        np.add.at(out, key, grad._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.key), None, None


def _plain_key(item: Any) -> Any:
    if isinstance(item, Tensor):  # a 0-d integer tensor indexes like an int, as in PyTorch
        return int(item._data) if item.ndim == 0 and item._data.dtype.kind in "iu" else item._data
    if isinstance(item, (list, tuple)):
        return np.asarray([i._data if isinstance(i, Tensor) else i for i in item])
    return item


def index(a: Tensor, key: Any) -> Tensor:
    """Basic indexing is done one dimension at a time (a Select or Slice per dimension, as
    PyTorch records it); anything advanced is one Index."""
    key = key if isinstance(key, tuple) else (key,)
    key = tuple(_plain_key(k) for k in key)
    if any(_is_advanced(k) for k in key):
        if any(_is_int(k) for k in key):  # PyTorch selects integers first (numpy would not)
            basic = tuple(part for k in key for part in (
                (slice(None),) * _dims_spanned(k) if _is_advanced(k) else (k,)))
            rest = tuple(slice(None) if k is None or isinstance(k, slice) else k
                         for k in key if not _is_int(k))
            return Index.apply(index(a, basic), rest)
        return Index.apply(a, key)
    if sum(k is not None and k is not Ellipsis for k in key) > a.ndim:
        raise IndexError(f"too many indices for tensor of dimension {a.ndim}")
    if Ellipsis in key:
        at = key.index(Ellipsis)
        fill = a.ndim - sum(k is not None and k is not Ellipsis for k in key)
        key = key[:at] + (slice(None),) * fill + key[at + 1:]
    out, dim = a, 0
    for k in key:
        if k is None:
            out = Unsqueeze.apply(out, dim)
            dim += 1
        elif isinstance(k, slice):
            if k != slice(None):
                out = Slice.apply(out, (slice(None),) * dim + (k,))
            dim += 1
        else:
            size = out.shape[dim]
            if not -size <= int(k) < size:
                raise IndexError(f"index {int(k)} is out of bounds for dimension {dim} with size "
                                 f"{size}")
            out = Select.apply(out, (slice(None),) * dim + (int(k),))
    if out is a:  # a[:] or a[...]: still a new tensor, as in PyTorch
        out = Slice.apply(a, (slice(None),))
    return out


def _dims_spanned(k: Any) -> int:
    """How many dimensions an advanced index consumes: a mask its own, a bool scalar none."""
    if not isinstance(k, np.ndarray):
        return 0
    return k.ndim if k.dtype == bool else 1


def _is_advanced(k: Any) -> bool:
    return isinstance(k, (np.ndarray, bool, np.bool_))


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


class Stack(Function):
    """stack: each input gets its slice of the gradient"""
    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        # PyTorch's result is always contiguous; numpy's follows the inputs' layout
        return Tensor(np.ascontiguousarray(np.stack([t._data for t in tensors], axis=dim)))

    @staticmethod
    def backward(ctx, grad):
        return (None, *(grad.select(ctx.dim, i) for i in range(grad.shape[ctx.dim])))


class Cat(Function):
    """cat: each input gets its block of the gradient"""
    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim, ctx.sizes = dim, [t.shape[dim] for t in tensors]
        return Tensor(np.ascontiguousarray(np.concatenate([t._data for t in tensors], axis=dim)))

    @staticmethod
    def backward(ctx, grad):
        bounds = np.cumsum([0] + ctx.sizes).tolist()
        return (None, *(grad.narrow(ctx.dim, lo, hi - lo) for lo, hi in zip(bounds, bounds[1:])))


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors[1:], start=1):
        if t.shape != tensors[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} "
                f"at entry 0 and {list(t.shape)} at entry {i}")
    return Stack.apply(_dims(dim, tensors[0].ndim + 1)[0], *_common(tensors))


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    return Cat.apply(_dims(dim, tensors[0].ndim)[0], *_common(tensors))


def _common(tensors: Sequence[Tensor]) -> list[Tensor]:
    from .._dtype import result_type

    dt = result_type(*[t for t in tensors if t.ndim] or list(tensors))
    return [t if t.dtype is dt else t.to(dt) for t in tensors]


class Clone(Function):
    """clone: a copy; the gradient passes through"""
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return Tensor(a._data.copy())

    @staticmethod
    def backward(ctx, grad):
        return grad


class ToCopy(Function):
    """to(dtype): the gradient is cast back"""
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.dtype = a.dtype
        return Tensor(a._data.astype(dtype.numpy))

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.dtype), None


class CopySlices(Function):
    """a[key] = value: the overwritten positions send no gradient to a's old values;
    value gets the gradient of the positions it was written to"""
    node_name = "CopySlices"
    node_qualname = "torch::autograd::CopySlices"

    @staticmethod
    def forward(ctx, a, key, value):
        ctx.key, ctx.value_shape = key, value.shape
        out = a._data.copy()
        out[key] = value._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        from .pointwise import where

        kept = np.ones(grad.shape, dtype=bool)
        kept[ctx.key] = False
        grad_value = Index.apply(grad, ctx.key)
        if grad_value.numel() == int(np.prod(ctx.value_shape)) and grad_value.ndim < len(
                ctx.value_shape):
            grad_value = grad_value.reshape(ctx.value_shape)
        return where(Tensor(kept), grad, 0.0), None, grad_value


__all__ = ["Size", "from_numpy", "sum_to", "index", "stack", "cat"]


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
    positions = index(Tensor(np.arange(int(np.prod(shape))).reshape(shape)), key)._data
    return np.unravel_index(positions, shape)
