"""gather, scatter and scatter_add: reading and writing along one dimension at positions given
by an index tensor (out[i][j] = a[i][index[i][j]] for dim=1). The gradient of a read is a
scatter_add of the gradient back; of a write, a gather of it."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .operands import result_like
from .shape import _dims


def _coords(index: np.ndarray, dim: int) -> tuple:
    """numpy's fancy index that names, for every entry of `index`, the position it points to:
    `index` itself along `dim`, the entry's own coordinate along every other dimension."""
    grid = np.indices(index.shape, sparse=True)
    return tuple(index if d == dim else g for d, g in enumerate(grid))


def _check(a: Tensor, dim: int, index: Tensor, name: str) -> int:
    if index._data.dtype not in (np.int32, np.int64):
        raise RuntimeError(f"{'gather' if name == 'gather' else 'scatter'}(): Expected dtype "
                           "int32/int64 for index")
    if index.ndim != a.ndim and index.numel() and a.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as "
                           f"{'input' if name == 'gather' else 'self'} tensor")
    d = _dims(dim, a.ndim)[0] if a.ndim else 0
    size = a.shape[d] if a.ndim else 1
    bad = (index._data < -size) | (index._data >= size)
    if bad.any():
        raise RuntimeError(f"index {int(index._data[bad][0])} is out of bounds for dimension {d} "
                           f"with size {size}")
    return d


class Gather(Function):
    """d gather(a, dim, index) = the gradient added back at the positions read"""
    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, a, dim, index):
        ctx.shape, ctx.dim, ctx.index = a.shape, dim, index
        return result_like(a._data[_coords(index._data, dim)], a)

    @staticmethod
    def backward(ctx, grad):
        zeros = tensor_of(np.zeros(ctx.shape, dtype=grad._data.dtype))
        return scatter_add(zeros, ctx.dim, ctx.index, grad), None, None


class ScatterAdd(Function):
    """scatter_add(a, dim, index, src) = a with src added at index: a gets the gradient, src
    the gradient read at index"""
    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, a, dim, index, src):
        ctx.dim, ctx.index = dim, index
        out = a._data.copy()
        np.add.at(out, _coords(index._data, dim), src._data[_within(index, src)])
        return result_like(out, a)

    @staticmethod
    def backward(ctx, grad):
        return grad, None, None, gather(grad, ctx.dim, ctx.index)


class Scatter(Function):
    """scatter(a, dim, index, src) = a with src written at index: a's gradient is zero where
    it was overwritten, src gets the gradient read at index"""
    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, a, dim, index, src):
        ctx.dim, ctx.index = dim, index
        out = a._data.copy()
        if isinstance(src, Tensor):
            out[_coords(index._data, dim)] = src._data[_within(index, src)]
        else:
            out[_coords(index._data, dim)] = src
        return result_like(out, a)

    @staticmethod
    def backward(ctx, grad):
        kept = ScatterValue.apply(grad, ctx.dim, ctx.index, 0.0)  # grad.scatter(dim, index, 0)
        src_grad = gather(grad, ctx.dim, ctx.index) if ctx.needs_input_grad[3] else None
        return kept, None, None, src_grad  # a number written in gets no gradient


class ScatterValue(Scatter):
    node_name = "ScatterBackward1"


def _within(index: Tensor, src: Tensor) -> tuple:
    """src may be larger than index: only its first index.shape entries are used."""
    return tuple(slice(0, n) for n in index.shape)


def gather(a: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    return Gather.apply(a, _check(a, dim, index, "gather"), index)


def scatter(a: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    if reduce is not None:
        raise NotImplementedError("minigrad is a subset of PyTorch: scatter has no reduce=; "
                                  "use scatter_add")
    d = _check(a, dim, index, "scatter")
    src = value if src is None else src
    if isinstance(src, Tensor):
        return Scatter.apply(a, d, index, src)
    return ScatterValue.apply(a, d, index, src)


def scatter_add(a: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    return ScatterAdd.apply(a, _check(a, dim, index, "scatter_add"), index, src)


class Take(Function):
    """take(a, index): a read as one flat row, at `index`; the gradient added back there"""
    node_name = "TakeBackward0"

    @staticmethod
    def forward(ctx, a, index):
        ctx.shape, ctx.index = a.shape, index._data
        return result_like(np.array(a._data.reshape(-1)[index._data]), a)

    @staticmethod
    def backward(ctx, grad):
        summed = np.zeros(int(np.prod(ctx.shape, dtype=np.int64)), grad._data.dtype)
        np.add.at(summed, ctx.index.reshape(-1), grad._data.reshape(-1))
        return tensor_of(summed.reshape(ctx.shape)), None


def take(a: Tensor, index: Any, position: int = 1) -> Tensor:
    """`position`: where `index` stands, as PyTorch's error counts it (2 in torch.take)."""
    if not isinstance(index, Tensor):
        raise TypeError(f"take(): argument 'index' (position {position}) must be Tensor, not "
                        f"{type(index).__name__}")
    if index._data.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{index.dtype.scalar_name}")
    size = a.numel()
    bad = (index._data < -size) | (index._data >= size)
    if bad.any():
        raise IndexError(f"out of range: tried to access index {int(index._data[bad][0])} on a "
                         f"tensor of {size} elements.")
    return Take.apply(a, index)
