"""Reductions: sum, mean, max, min. Backward spreads the gradient over what was reduced."""
from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from .. import fidelity
from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .operands import refuse_bool
from .pointwise import DivScalar
from .shape import _dims, distinct_dims


class _ValuesIndices(namedtuple("_ValuesIndices", ["values", "indices"])):
    """What max(dim)/min(dim) return: a pair that prints as PyTorch's torch.return_types."""

    __slots__ = ()
    op = "max"

    def __repr__(self) -> str:
        return (f"torch.return_types.{self.op}(\nvalues={self.values!r},\n"
                f"indices={self.indices!r})")


class MaxResult(_ValuesIndices):
    __slots__ = ()
    op = "max"


class MinResult(_ValuesIndices):
    __slots__ = ()
    op = "min"


class MedianResult(_ValuesIndices):
    __slots__ = ()
    op = "median"


# `type(t.max(dim=0))` prints as in PyTorch: <class 'torch.return_types.max'>, as its repr does
for _result in (MaxResult, MinResult, MedianResult):
    _result.__name__ = _result.__qualname__ = _result.op
    _result.__module__ = "torch.return_types"
del _result


def _restore(grad: Tensor, shape: tuple, dims: tuple | None, keepdim: bool) -> Tensor:
    """Give a reduced gradient its reduced dimensions back (as size 1) so it broadcasts. A
    tensor gets them one unsqueeze at a time, lowest first, as PyTorch's backward formulas do
    (a graph made with create_graph=True has their nodes: `jvp` ends in SqueezeBackward1).
    `dims` None: a reduction of everything without `dim` given, whose 0-d gradient PyTorch's
    formulas (sum's, mean's) broadcast as it is."""
    if dims is not None and not keepdim and shape:
        if isinstance(grad, Tensor):
            for dim in sorted(d % len(shape) for d in dims):
                grad = grad.unsqueeze(dim)
            return grad
        grad = grad.reshape([1 if i in dims else s for i, s in enumerate(shape)])
    return grad


class Sum(Function):
    """d sum(a) = 1 for every element"""
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, a, dims=None, keepdim=False):
        ctx.shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        data = a._data.astype(np.int64) if a._data.dtype.kind in "biu" else a._data
        return tensor_of(fidelity.sum_like_torch(data, dims, keepdim))

    @staticmethod
    def backward(ctx, grad):
        return _restore(grad, ctx.shape, ctx.dims, ctx.keepdim).expand(ctx.shape), None, None

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return (np.broadcast_to(_restore(grad, ctx.shape, ctx.dims, ctx.keepdim), ctx.shape),
                None, None)


class SumDim(Sum):
    node_name = "SumBackward1"


class Mean(Function):
    """d mean(a) = 1/n for every element"""
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, a, dims=None, keepdim=False):
        if not a.dtype.is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {a.dtype.tensor_type.replace('Tensor', '')}")
        ctx.shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        out = fidelity.mean_like_torch(a._data, dims, keepdim)
        ctx.count = a.numel() // max(1, out.size)
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        grad = _restore(grad, ctx.shape, ctx.dims, ctx.keepdim).expand(ctx.shape)
        return DivScalar.apply(grad, ctx.count), None, None  # by a number: DivBackward1

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        count = np.asarray(ctx.count, dtype=grad.dtype)
        if grad.size == 1:  # a loss's mean: every element gets the same quotient, computed once
            return np.full(ctx.shape, grad.reshape(()) / count, grad.dtype), None, None
        grad = np.broadcast_to(_restore(grad, ctx.shape, ctx.dims, ctx.keepdim), ctx.shape)
        return grad / count, None, None


class MeanDim(Mean):
    node_name = "MeanBackward1"


def _check_extent(a: Tensor, name: str, dim: int | None = None) -> None:
    """PyTorch's errors for the max or min of nothing (numpy's would name argmax)."""
    if dim is None and a.numel() == 0:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() "
                           "== 0. Specify the reduction dim with the 'dim' argument.")
    if dim is not None and a.ndim and a.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


class Extremum(Function):
    """max()/min() of all elements: the gradient is shared evenly among the elements that
    reached the extreme value, as PyTorch does"""
    node_name = "MaxBackward1"

    @staticmethod
    def forward(ctx, a, pick=np.max):
        value = pick(a._data)
        hits = np.isnan(a._data) if np.isnan(value) else a._data == value  # nan: where nans are
        ctx.hits, ctx.count = tensor_of(np.asarray(hits)), int(hits.sum())  # (0-d: numpy's bool)
        return tensor_of(np.asarray(value))

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's evenly_distribute_backward: zeros, filled where the extreme was with
        grad / count (MaskedFillBackward1 in a graph of the backward; elsewhere +0, never -0)"""
        zeros = tensor_of(np.zeros(ctx.hits.shape, dtype=grad._data.dtype))
        return zeros.masked_fill_(ctx.hits, grad / ctx.count), None


class MinAll(Extremum):
    node_name = "MinBackward1"


class ExtremumDim(Function):
    """max(dim)/min(dim): the gradient goes to the element that was picked"""
    node_name = "MaxBackward0"

    @staticmethod
    def forward(ctx, a, dim, keepdim, arg=np.argmax):
        ctx.shape = a.shape
        if a.ndim == 0:  # a single value is its own extremum, at index 0
            idx = tensor_of(np.zeros((), dtype=np.int64))
            ctx.mark_non_differentiable(idx)
            return tensor_of(a._data.copy()), idx
        indices = np.expand_dims(arg(a._data, axis=dim), dim)
        values = np.take_along_axis(a._data, indices, axis=dim)
        ctx.dim, ctx.indices, ctx.keepdim = dim, indices, keepdim
        if not keepdim:
            values, indices = values.squeeze(dim), indices.squeeze(dim)
        idx = tensor_of(np.asarray(indices, dtype=np.int64))
        ctx.mark_non_differentiable(idx)
        return tensor_of(np.asarray(values)), idx

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        if not ctx.shape:
            return grad, None, None, None
        # PyTorch's value_selecting_reduction_backward: zeros, the gradient scattered to the
        # positions picked (ScatterBackward0 in a graph of the backward)
        grad = _restore(grad, ctx.shape, (ctx.dim,), ctx.keepdim)
        zeros = tensor_of(np.zeros(ctx.shape, dtype=grad._data.dtype))
        return zeros.scatter_(ctx.dim, tensor_of(ctx.indices), grad), None, None, None


class MinDim(ExtremumDim):
    node_name = "MinBackward0"


def reduce_sum(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return Sum.apply(a)
    return SumDim.apply(a, distinct_dims(dim, a.ndim) or tuple(range(a.ndim)), keepdim)  # []: all


def reduce_mean(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return Mean.apply(a)
    return MeanDim.apply(a, distinct_dims(dim, a.ndim) or tuple(range(a.ndim)), keepdim)


def extremum(a: Tensor, name: str, dim: int | None = None, keepdim: bool = False) -> Any:
    """`a.max()` or `a.min()` (`name`), or along `dim`: the values and their indices, as
    torch.return_types.max (or min)."""
    largest = name == "max"
    if dim is None:
        _check_extent(a, name)
        return (Extremum if largest else MinAll).apply(a, np.max if largest else np.min)
    d = _one_dim(dim, a.ndim)
    _check_extent(a, name, d)
    values, indices = (ExtremumDim if largest else MinDim).apply(
        a, d, keepdim, np.argmax if largest else np.argmin)
    return (MaxResult if largest else MinResult)(values, indices)


def _one_dim(dim: int, ndim: int) -> int:
    dims = _dims(dim, ndim)  # checks the range; a 0-d tensor takes 0 or -1 and gives ()
    return dims[0] if dims else 0


class Median(Extremum):
    """median() of all elements, the lower of the two middle ones (nan if there is one): the
    gradient is shared evenly among the elements equal to it, as PyTorch shares it"""
    node_name = "MedianBackward0"

    @staticmethod
    def forward(ctx, a, pick=None):
        data = a._data
        nan = data.dtype.kind == "f" and bool(np.isnan(data).any())
        if nan or data.size == 0:
            value = np.asarray(np.nan, dtype=data.dtype)
            hits = np.isnan(data)
        else:
            value = np.sort(data, axis=None)[(data.size - 1) // 2]
            hits = data == value
        ctx.hits, ctx.count = tensor_of(np.asarray(hits)), int(hits.sum())  # (0-d: numpy's bool)
        return tensor_of(np.asarray(value, dtype=data.dtype))


class MedianDim(ExtremumDim):
    """median(dim): the values and their positions; the gradient goes to the position picked.
    Among equal values PyTorch's docs promise no position ("not necessarily the first
    occurrence"); minigrad's, the one a stable sort puts in the middle, is the one PyTorch 2.13
    returned on every tie tried (test_grad_contract_vs_torch.py, median_dim_ties)."""
    node_name = "MedianBackward1"


def _median_positions(data: np.ndarray, axis: int) -> np.ndarray:
    """where the lower median of each slice along `axis` is; in a slice with nan, its first nan
    (the median is then nan)"""
    order = np.argsort(data, axis=axis, kind="stable")
    lower = np.take(order, (data.shape[axis] - 1) // 2, axis=axis)
    if data.dtype.kind != "f":
        return lower
    nans = np.isnan(data)
    return np.where(nans.any(axis=axis), np.argmax(nans, axis=axis), lower)


def median(a: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    refuse_bool(a, "median_cpu" if dim is None else "median_out")
    if dim is None:
        return Median.apply(a)
    d = _one_dim(dim, a.ndim)
    _check_extent(a, "median", d)
    return MedianResult(*MedianDim.apply(a, d, keepdim, _median_positions))


class Trace(Function):
    """the sum of a matrix's diagonal: d = g on the diagonal, 0 elsewhere"""
    node_name = "TraceBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        diagonal = np.diagonal(a._data)
        if a._data.dtype.kind == "f":  # PyTorch sums a float32 diagonal in float64
            return tensor_of(np.asarray(diagonal.sum(dtype=np.float64), dtype=a._data.dtype))
        return tensor_of(np.asarray(diagonal.sum(dtype=np.int64)))

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's trace_backward: grad written into zeros at the diagonal's positions of the
        flattened matrix (index_fill), then viewed as the matrix (the zeros stay +0)."""
        rows, columns = ctx.shape
        flat = tensor_of(np.zeros(rows * columns, dtype=grad._data.dtype))
        positions = tensor_of(np.arange(0, rows * columns, columns + 1, dtype=np.int64))
        return flat.index_fill(0, positions, grad).view(ctx.shape)


def trace(a: Tensor) -> Tensor:
    if a.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
    if a.dtype.name == "bool":
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return Trace.apply(a)
