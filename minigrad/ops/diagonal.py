"""diagonal(offset, dim1, dim2): a view of the elements a[..., i, ..., i + offset, ...], which
an in-place change writes through to its base, as PyTorch's. Its gradient is zeros with the
incoming gradient written along the same diagonal.

diag(a, k): a 1-D tensor laid along the k-th diagonal of a square matrix of zeros, or a 2-D
tensor's k-th diagonal as a new tensor (not a view), with PyTorch 2.13's grad_fn names."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .shape import _dims, _view_of


def _diagonal_of(data: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """numpy's diagonal, as a writable view: numpy's own is read-only, so the same strides are
    laid over the memory, starting at the diagonal's first element."""
    start = [slice(None)] * data.ndim
    if offset >= 0:
        start[dim2] = slice(offset, None)
    else:
        start[dim1] = slice(-offset, None)
    corner = data[tuple(start)]
    picked = np.diagonal(corner, 0, dim1, dim2)
    return np.lib.stride_tricks.as_strided(corner, picked.shape, picked.strides)


class Diagonal(Function):
    """the view; d = the gradient placed back on the diagonal, zeros elsewhere"""
    node_name = "DiagonalBackward0"

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        ctx.shape, ctx.where = a.shape, (offset, dim1, dim2)
        return _view_of(_diagonal_of(a._data, offset, dim1, dim2), a)

    @staticmethod
    def backward(ctx, grad):
        return DiagonalBackward.apply(grad, ctx.shape, *ctx.where), None, None, None


class DiagonalBackward(Function):
    """diagonal's backward, recorded for a gradient of a gradient: its own is diagonal"""
    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, shape, offset, dim1, dim2):
        ctx.where = (offset, dim1, dim2)
        out = np.zeros(shape, dtype=grad._data.dtype)
        _diagonal_of(out, offset, dim1, dim2)[...] = grad._data
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, *ctx.where), None, None, None, None


def diagonal(a: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    d1, d2 = _dims((dim1, dim2), a.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(a, offset, d1, d2)


class DiagonalCopy(Diagonal):
    """the diagonal of a matrix as a new tensor; its gradient is the view's"""
    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        ctx.shape, ctx.where = a.shape, (offset, dim1, dim2)
        return tensor_of(_diagonal_of(a._data, offset, dim1, dim2).copy())


class DiagEmbed(Function):
    """a vector along the offset-th diagonal of a square matrix; d = that diagonal of the
    gradient"""
    node_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, v, offset):
        ctx.offset = offset
        size = v.shape[0] + abs(offset)
        out = np.zeros((size, size), dtype=v._data.dtype)
        _diagonal_of(out, offset, 0, 1)[...] = v._data
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, ctx.offset, 0, 1), None


def diag(a: Tensor, diagonal: int = 0) -> Tensor:
    if a.ndim == 1:
        return DiagEmbed.apply(a, diagonal)
    if a.ndim == 2:
        return DiagonalCopy.apply(a, diagonal, 0, 1)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {a.ndim}D")
