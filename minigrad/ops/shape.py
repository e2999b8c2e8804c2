"""Operations that move values around without computing new ones: views, stacking, copies
(indexing is in indexing.py). Their backward puts each gradient value back where its input
value came from."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import fidelity
from .._dtype import result_type
from ..autograd.function import Function
from ..autograd.gradient_ops import Stack, sum_to, summed_to
from ..tensor import Tensor, tensor_of
from .operands import promoted


def _view_of(data: np.ndarray, base: Tensor) -> Tensor:
    """A result that shares memory with `base` is a view of it (Tensor._view): it shares its
    version counter, and looks into the same root. (If it joins the graph, the root keeps track
    of it: function.track_view.)"""
    return base._view(data) if np.shares_memory(data, base._data) else tensor_of(data)


def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    for d in dims:
        if not -max(ndim, 1) <= d < max(ndim, 1):
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {d})")
    return tuple(d % max(ndim, 1) for d in dims) if ndim else ()


def distinct_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """_dims, for a list of dimensions to reduce or squeeze, each named once (as PyTorch
    checks: `x.sum((0, -2))` of a matrix names 0 twice)."""
    dims = _dims(dim, ndim)
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


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

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return grad.reshape(ctx.shape), None  # a view, or a copy in C order as reshape's


class UnsafeView(View):
    """the reshape of a fresh copy (reshape of a non-contiguous tensor, folded matmul): nothing
    else holds that copy, so the result is not a view (`_base` None), as in PyTorch"""
    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        return tensor_of(a._data.reshape(shape))


class ReshapeAlias(View):
    """reshape of a tensor that is not contiguous but whose strides allow a view (a slice's
    columns, say): PyTorch's reshape makes it with _reshape_alias, a node of its own name"""
    node_name = "ReshapeAliasBackward0"


def reshape(a: Tensor, shape: tuple) -> Tensor:
    """A view when the values' layout allows one, else a copy reshaped (as PyTorch does)."""
    if int(np.prod(shape)) == a.numel() and -1 not in shape:
        try:
            np.reshape(a._data, shape, copy=False)
        except ValueError:
            return UnsafeView.apply(Clone.apply(a), shape)
        if not a._data.flags.c_contiguous:
            return ReshapeAlias.apply(a, shape)
    return View.apply(a, shape)


def expand_error(shape: tuple, sizes: tuple, dtype) -> RuntimeError:
    """PyTorch's error for expanding a tensor of `shape` to `sizes` (and for writing a value of
    `shape` into `sizes` elements, which expands it): sizes too few, or the last dimension
    that neither matches nor is 1, counted in `sizes`."""
    def listed(dims): return f"[{', '.join(map(str, dims))}]"
    if len(sizes) < len(shape):
        return RuntimeError(
            f"expand(torch.{dtype.tensor_type}{{{listed(shape)}}}, size={listed(sizes)}): the "
            f"number of sizes provided ({len(sizes)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})")
    offset = len(sizes) - len(shape)
    dim = max(i for i, n in enumerate(shape) if n not in (1, sizes[offset + i]))
    return RuntimeError(
        f"The expanded size of the tensor ({sizes[offset + dim]}) must match the existing size "
        f"({shape[dim]}) at non-singleton dimension {offset + dim}.  Target sizes: "
        f"{listed(sizes)}.  Tensor sizes: {listed(shape)}")


class Expand(Function):
    """expand: broadcast values; their gradients add up"""
    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        shape = tuple(a.shape[i - len(shape) + a.ndim] if s == -1 else s
                      for i, s in enumerate(shape))
        try:
            values = np.broadcast_to(a._data, shape)
        except ValueError:
            raise expand_error(a.shape, shape, a.dtype) from None
        # numpy's broadcast is read-only; PyTorch's expand writes through to `a` (fill_, or a
        # row: _inplace refuses a write where elements share memory, as PyTorch does)
        values = np.lib.stride_tricks.as_strided(a._data, values.shape, values.strides)
        return _view_of(values, a)

    @staticmethod
    def backward(ctx, grad):
        return sum_to(grad, ctx.shape), None

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        shape = tuple(ctx.shape)
        return grad if grad.shape == shape else summed_to(grad, shape), None


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

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return grad.transpose(np.argsort(ctx.dims)), None


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

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return (np.swapaxes(grad, *ctx.swap) if grad.ndim else grad), None, None


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

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return grad.T


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
        """PyTorch's unsqueeze_to: an unsqueeze for each dimension squeezed away, lowest
        first (found by matching the gradient's sizes against the input's)"""
        for d, size in enumerate(ctx.shape):
            if d >= grad.ndim or grad.shape[d] != size:
                grad = grad.unsqueeze(d)
        return grad, None


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    """squeeze of a list of dims (another overload in PyTorch)"""
    node_name = "SqueezeBackward2"


class SqueezeDimInPlace(Squeeze):
    """squeeze_(dim) of a fresh result nothing else holds (what PyTorch's matmul does to a
    vector's product): the same tensor in PyTorch, so not a view, and its version goes up"""
    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, a, dims):
        ctx.shape = a.shape
        out = tensor_of(np.squeeze(a._data, axis=tuple(d for d in dims if a.shape[d] == 1)))
        out._bump_version()
        return out


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


# The nodes of t.unsqueeze_(d), t.squeeze_() and t.t_(), which give a tensor a new shape in place
# (_inplace.reshape_in_place): the same gradients, PyTorch's names for the in-place forms.
class UnsqueezeInPlace(Unsqueeze):
    node_name = "UnsqueezeBackward1"


class SqueezeInPlace(Squeeze):
    node_name = "SqueezeBackward3"


class SqueezeDimsInPlace(SqueezeDimInPlace):
    node_name = "SqueezeBackward5"


class TInPlace(T):
    node_name = "TBackward1"


class Cat(Function):
    """cat: each input gets its block of the gradient"""
    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim, ctx.sizes = dim, [t.shape[dim] for t in tensors]
        return tensor_of(np.ascontiguousarray(np.concatenate([t._data for t in tensors], axis=dim)))

    @staticmethod
    def backward(ctx, grad):
        bounds = np.cumsum([0] + ctx.sizes).tolist()
        return (None, *(grad.narrow(ctx.dim, lo, hi - lo) for lo, hi in zip(bounds, bounds[1:])))


def stack(tensors: Sequence[Tensor], dim: int | None = None, *, axis: int | None = None) -> Tensor:
    dim = _dim_or_axis(dim, axis, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors[1:], start=1):
        if t.shape != tensors[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} "
                f"at entry 0 and {list(t.shape)} at entry {i}")
    return Stack.apply(_dims(dim, tensors[0].ndim + 1)[0], *_common(tensors))


def cat(tensors: Sequence[Tensor], dim: int | None = None, *, axis: int | None = None) -> Tensor:
    dim = _dim_or_axis(dim, axis, "cat")
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    # PyTorch still skips an empty vector among tensors of other shapes (its legacy "empty")
    kept = [t for t in tensors if t.shape != (0,)]
    if kept and len(kept) < len(tensors) and kept[0].ndim != 1:
        tensors = kept
    d = _dims(dim, tensors[0].ndim)[0]
    first = tensors[0].shape
    for i, t in enumerate(tensors[1:], start=1):  # PyTorch's words, not numpy's
        if len(t.shape) != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} "
                               f"and {len(t.shape)}")
        for j, (want, got) in enumerate(zip(first, t.shape)):
            if j != d and want != got:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {want} but got size {got} for tensor number "
                                   f"{i} in the list.")
    return Cat.apply(d, *_common(tensors))


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """The tensors one under another: cat along dim 0 after making each at least 2-d (a vector
    a row, as PyTorch's atleast_2d: unsqueeze(0), a number reshape(1, 1))."""
    tensors = _tensor_list(tensors, "vstack")
    return cat([t.reshape(1, 1) if t.ndim == 0 else t.unsqueeze(0) if t.ndim == 1 else t
                for t in tensors], 0)


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """The tensors side by side: cat along dim 1, or along dim 0 when they are vectors (a
    number counts as a vector of one)."""
    tensors = [t.reshape(1) if t.ndim == 0 else t for t in _tensor_list(tensors, "hstack")]
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def _tensor_list(tensors: Any, name: str) -> list[Tensor]:
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return list(tensors)


def _dim_or_axis(dim: int | None, axis: int | None, name: str) -> int:
    """PyTorch takes numpy's `axis=` for `dim=` (`torch.cat([a, b], axis=0)`), not both."""
    if axis is None:
        return 0 if dim is None else dim
    if dim is not None:
        raise TypeError(f"{name}() got an unexpected keyword argument 'axis'")
    return axis


def _common(tensors: Sequence[Tensor]) -> list[Tensor]:
    """The tensors in the dtype cat and stack compute in: one of another dtype promoted inside
    the op (its own history the node's edge, as in PyTorch), not by a recorded copy."""
    dt = result_type(*[t for t in tensors if t.ndim] or list(tensors))
    return [t if t.dtype is dt else promoted(t, dt.numpy) for t in tensors]


class Clone(Function):
    """clone/contiguous: a copy; the gradient passes through. `keep_layout` is clone's
    memory_format=torch.preserve_format (its default); without it the copy is in C order."""
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a, keep_layout=False):
        return tensor_of(fidelity.copy_like_torch(a._data) if keep_layout else a._data.copy())

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class ToCopy(Function):
    """to(dtype): the gradient is cast back"""
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.dtype = a.dtype
        return tensor_of(a._data.astype(dtype.numpy))

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.dtype), None


def _window_positions(length: int, size: int, step: int) -> np.ndarray:
    """Where each element of each window of `unfold` comes from: (windows, size) positions."""
    windows = (length - size) // step + 1
    return np.arange(windows)[:, None] * step + np.arange(size)[None, :]


class Unfold(Function):
    """unfold(dim, size, step): the windows along dim as a new last dimension (a view whose
    windows may overlap); each element's gradient is the sum over the windows that hold it"""
    node_name = "UnfoldBackward0"

    @staticmethod
    def forward(ctx, a, dim, size, step):
        ctx.shape, ctx.dim, ctx.size, ctx.step = a.shape, dim, size, step
        data = a._data
        strides = data.strides
        windows = (data.shape[dim] - size) // step + 1
        values = np.lib.stride_tricks.as_strided(
            data, data.shape[:dim] + (windows,) + data.shape[dim + 1:] + (size,),
            strides[:dim] + (strides[dim] * step,) + strides[dim + 1:] + (strides[dim],),
            writeable=step >= size)  # overlapping windows: PyTorch writes element by element
        return _view_of(values, a)  # into shared memory, which minigrad does not repeat

    @staticmethod
    def backward(ctx, grad):
        return UnfoldBackward.apply(grad, ctx.shape, ctx.dim, ctx.size, ctx.step), None, None, None


class UnfoldBackward(Function):
    """unfold's backward as a function (its gradient is unfold again)"""
    node_name = "UnfoldBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, shape, dim, size, step):
        ctx.dim, ctx.size, ctx.step = dim, size, step
        full = tuple(shape)
        out = np.zeros(full, dtype=grad._data.dtype)
        positions = _window_positions(full[dim], size, step)
        moved = np.moveaxis(grad._data, -1, dim + 1)  # ..., windows, size, ...
        moved = moved.reshape(full[:dim] + (positions.size,) + full[dim + 1:])
        np.add.at(out, (slice(None),) * dim + (positions.ravel(),), moved)
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        return Unfold.apply(grad, ctx.dim, ctx.size, ctx.step), None, None, None, None


def unfold(a: Tensor, dimension: int, size: int, step: int) -> Tensor:
    dims = _dims(dimension, a.ndim)
    dim = dims[0] if dims else 0
    length = a.shape[dim] if a.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size "
                           f"is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if not a.ndim:  # one window of the one value (recorded as a view, not UnfoldBackward0)
        return a.reshape(1)[:size]
    return Unfold.apply(a, dim, size, step)
