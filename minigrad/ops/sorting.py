"""Ordering values: sort, argsort, topk, unique, nonzero, and counting and searching them
(bincount, bucketize). The gradient of a sorted or picked value goes back to the position it
came from (a scatter along the dimension)."""
from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from ..autograd.function import Function
from ..fidelity import ranges
from ..fidelity.topk_order import topk_positions
from ..tensor import Tensor, tensor_of
from .reduction import _one_dim, _ValuesIndices


class SortResult(_ValuesIndices):
    __slots__ = ()
    op = "sort"


class TopkResult(_ValuesIndices):
    __slots__ = ()
    op = "topk"


for _result in (SortResult, TopkResult):  # `type(...)` prints <class 'torch.return_types.sort'>
    _result.__name__ = _result.__qualname__ = _result.op
    _result.__module__ = "torch.return_types"
del _result


def _order(data: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Indices that sort `data` along `dim`, ties kept in their order (PyTorch's CPU sort is
    stable); NaN counts as the largest value, as in PyTorch."""
    if not descending:
        return np.argsort(data, axis=dim, kind="stable")
    key = data.astype(np.float64) if data.dtype.kind in "biu" else data
    nan = np.isnan(key)
    order = np.argsort(np.where(nan, -np.inf, -key), axis=dim, kind="stable")
    if nan.any():  # NaN before inf too
        first = np.argsort(~np.take_along_axis(nan, order, axis=dim), axis=dim, kind="stable")
        order = np.take_along_axis(order, first, axis=dim)
    return order


class Picked(Function):
    """Values picked along `dim` at `indices`: the gradient is scattered back there"""
    node_name = "SortBackward0"

    @staticmethod
    def forward(ctx, a, dim, indices):
        ctx.shape, ctx.dim, ctx.indices = a.shape, dim, indices
        if not a.ndim:  # a 0-d tensor is its own sort and top 1 (and top 0), at index 0
            idx = tensor_of(np.zeros((), dtype=np.int64))
            ctx.mark_non_differentiable(idx)
            return tensor_of(a._data.copy()), idx
        idx = tensor_of(indices.astype(np.int64))
        ctx.mark_non_differentiable(idx)
        return tensor_of(np.take_along_axis(a._data, indices, axis=dim)), idx

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        if not ctx.shape:
            return grad, None, None
        return grad.new_zeros(ctx.shape).scatter(ctx.dim, tensor_of(ctx.indices), grad), None, None


class PickedStable(Picked):
    """sort with `stable` given: PyTorch's sort.stable overload, recorded as SortBackward1"""
    node_name = "SortBackward1"


class Topk(Picked):
    node_name = "TopkBackward0"


def _pick(a: Tensor, dim: int, positions: np.ndarray, node: type, result: type) -> Any:
    """The values of `a` at `positions` along `dim`, and the positions."""
    return result(*node.apply(a, dim, positions))


def sort(a: Tensor, dim: int = -1, descending: bool = False, stable: Any = None) -> SortResult:
    d = _one_dim(dim, a.ndim)
    return _pick(a, d, _order(a._data.reshape(a.shape or (1,)), d, descending),
                 Picked if stable is None else PickedStable, SortResult)


def argsort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    return sort(a, dim, descending).indices


def topk(a: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
         ) -> TopkResult:  # noqa: A002 - PyTorch's name
    if a.dtype.name == "bool":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    d = _one_dim(dim, a.ndim)
    if not 0 <= k <= (a.shape[d] if a.ndim else 1):
        raise RuntimeError("selected index k out of range")
    data = a._data.reshape(a.shape or (1,))
    order = _order(data, d, largest)
    return _pick(a, d, _as_aten_picks(data, d, order, k, largest, sorted), Topk, TopkResult)


def _as_aten_picks(data: np.ndarray, dim: int, order: np.ndarray, k: int, largest: bool,
                   sorted_: bool) -> np.ndarray:
    """topk's positions (a stable sort's first k) made PyTorch's: where the row's top k + 1
    hold equal values (or NaNs), or sorted=False leaves the selection's own order, which of them
    come first is what libstdc++'s selection does in ATen's kernel (fidelity/topk_order.py)."""
    positions, n = np.take(order, np.arange(k), axis=dim), data.shape[dim]
    if k == 0 or n == 0:
        return positions
    rows, picks = np.moveaxis(data, dim, -1), np.moveaxis(positions, dim, -1).copy()
    if sorted_ or k * 64 <= n:  # the selection sorts: only ties can reorder
        top = np.take_along_axis(rows, np.moveaxis(
            np.take(order, np.arange(min(k + 1, n)), axis=dim), dim, -1), axis=-1)
        same = top[..., 1:] == top[..., :-1]
        if top.dtype.kind == "f":
            same |= np.isnan(top[..., 1:]) & np.isnan(top[..., :-1])
        redo = same.any(axis=-1)
    else:
        redo = np.ones(rows.shape[:-1], dtype=bool)
    for row in map(tuple, np.argwhere(redo)):
        picks[row] = topk_positions(rows[row].tolist(), k, largest, sorted_)
    return np.moveaxis(picks, -1, dim)


class Unique(Function):
    """unique's values: PyTorch has no derivative for it"""
    node_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx, a):
        return tensor_of(np.unique(a._data))

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the derivative for '_unique2' is not implemented.")


def unique(a: Tensor, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim: int | None = None) -> Any:
    """The distinct values, sorted (and where each element went, and how often each occurs)."""
    if dim is not None:
        values, inverse, counts = np.unique(a._data, return_inverse=True, return_counts=True,
                                            axis=_one_dim(dim, a.ndim))
        result = [tensor_of(values)]
    else:
        _, inverse, counts = np.unique(a._data, return_inverse=True, return_counts=True)
        result = [Unique.apply(a)]
    if return_inverse:
        result.append(tensor_of(inverse.reshape(a.shape if dim is None else -1).astype(np.int64)))
    if return_counts:
        result.append(tensor_of(counts.astype(np.int64)))
    return result[0] if len(result) == 1 else tuple(result)


def nonzero(a: Tensor, *, as_tuple: bool = False) -> Any:
    """The indices of the non-zero elements: one row per element (or one tensor per dimension)."""
    where = np.nonzero(a._data) if a.ndim else np.nonzero(a._data.reshape(1))
    if as_tuple:
        return tuple(tensor_of(w.astype(np.int64)) for w in where)
    if not a.ndim:  # one row of no coordinates when it is not zero
        return tensor_of(np.zeros((len(where[0]), 0), dtype=np.int64))
    return tensor_of(np.stack(where, axis=1).astype(np.int64).reshape(-1, a.ndim))


def bincount(a: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value 0, 1, ... occurs in a 1-d tensor of non-negative integers (or the
    sum of their weights)."""
    if a.dtype.is_floating_point or a.dtype.name == "bool":
        raise NotImplementedError(f'"bincount_cpu" not implemented for '
                                  f"'{a.dtype.scalar_name}'")
    if a.ndim != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if a.numel() and a._data.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return tensor_of(np.bincount(a._data, minlength=minlength).astype(np.int64))
    counts = np.bincount(a._data, weights._data, minlength=minlength)
    return tensor_of(counts.astype(weights._data.dtype if weights.dtype.is_floating_point
                                else np.float64))


def bucketize(a: Tensor, boundaries: Tensor, *, out_int32: bool = False, right: bool = False
              ) -> Tensor:
    """The index of the bucket each value falls in, between sorted boundaries."""
    side = "right" if right else "left"
    found = np.searchsorted(boundaries._data, a._data, side=side)
    return tensor_of(np.asarray(found, dtype=np.int32 if out_int32 else np.int64))


def histc(a: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A002
    """How many elements fall in each of `bins` equal bins over [min, max] (the data's own range
    when min == max), the last bin closed; elements outside are left out. Not differentiable.
    An element's bin is PyTorch's: int((x - min) * bins / (max - min)) in the input's dtype."""
    if not a.dtype.is_floating_point:  # PyTorch's bin edges come first for a bool tensor
        kernel = "linspace_cpu" if a.dtype.name == "bool" else "histogram_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{a.dtype.scalar_name}\'')
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if min > max:
        raise RuntimeError("torch.histc: max must be larger than min")
    low, high = float(min), float(max)
    if low == high and a.numel():
        low, high = float(a._data.min()), float(a._data.max())
    if low == high:
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{low:g}, {high:g}] is not finite")
    kind = a._data.dtype.type
    x, low, high = a._data.ravel(), kind(low), kind(high)
    x = x[(x >= low) & (x <= high)]
    where = ((x - low) * kind(bins) / (high - low)).astype(np.int64)
    counts = np.bincount(np.minimum(where, bins - 1), minlength=bins)
    return tensor_of(counts.astype(a._data.dtype))


class HistogramResult(namedtuple("HistogramResult", ["hist", "bin_edges"])):
    """What torch.histogram returns, printed as PyTorch's torch.return_types.histogram."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (f"torch.return_types.histogram(\nhist={self.hist!r},\n"
                f"bin_edges={self.bin_edges!r})")


HistogramResult.__name__ = HistogramResult.__qualname__ = "histogram"
HistogramResult.__module__ = "torch.return_types"


def histogram(a: Tensor, bins: Any = 100, *, range: Any = None,  # noqa: A002
              weight: Tensor | None = None, density: bool = False) -> HistogramResult:
    """Counts (or weights' sums) of the elements in each bin, and the bins' edges: `bins`
    equal bins over `range` (the data's own when None, widened by 0.5 each way when it is one
    value), or the edges given as a tensor. An element's bin is PyTorch's: found from
    (x - left) * bins / (right - left), then moved one bin if the edges say otherwise; the
    last bin is closed. Not differentiable."""
    if not a.dtype.is_floating_point:
        raise NotImplementedError(f'"histogramdd" not implemented for \'{a.dtype.scalar_name}\'')
    kind = a._data.dtype.type
    x = a._data.ravel()
    if isinstance(bins, Tensor):
        edges = bins._data.astype(a._data.dtype)
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                               "dimension 0")
        if range is not None:
            low, high = float(range[0]), float(range[1])
        elif x.size:
            low, high = float(x.min()), float(x.max())
        else:  # PyTorch's range for no data
            low, high = 0.0, 1.0
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{low:g} max {high:g} for dimension 0")
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{low:g}, {high:g}] is "
                               "not finite")
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges = ranges.linspace_like_torch(low, high, bins + 1, a._data.dtype)
    count = len(edges) - 1
    left, right = edges[0], edges[-1]
    inside = (x >= left) & (x <= right)
    values = x[inside]
    position = ((values - left) * kind(count) / (right - left)).astype(np.int64)
    position = np.clip(position, 0, count - 1)
    position -= values < edges[position]
    position += (values >= edges[np.minimum(position + 1, count)]) & (position + 1 < count)
    weights = None if weight is None else weight._data.ravel()[inside]
    hist = np.bincount(position, weights, minlength=count).astype(a._data.dtype)
    if density:  # as PyTorch: by the sum, then by each bin's width
        hist = hist / kind(hist.sum()) / np.diff(edges)
    return HistogramResult(tensor_of(hist.astype(a._data.dtype)), tensor_of(edges.copy()))
