"""Vector norms: `torch.linalg.vector_norm`, which `t.norm()`, `torch.norm` and
`torch.linalg.norm` all come down to for the norms a learner meets. The backward follows
PyTorch's formulas, including their choice at the kink: where the norm is 0, the gradient is 0
(a subgradient), not the 0/0 = nan of the plain formula."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .reduction import _restore
from .operands import as_tensor_pair
from .masking import masked_fill
from .selection import Sgn, where
from .shape import distinct_dims


def _norm_values(data: np.ndarray, p: float, axes: tuple, keepdim: bool) -> np.ndarray:
    size = np.abs(data)
    if p == 2:
        return np.sqrt((size * size).sum(axis=axes, keepdims=keepdim))
    if p == math.inf:
        return size.max(axis=axes, keepdims=keepdim, initial=0)
    if p == -math.inf:
        return size.min(axis=axes, keepdims=keepdim)
    if p == 0:
        return (size != 0).sum(axis=axes, keepdims=keepdim).astype(data.dtype)
    return (size ** p).sum(axis=axes, keepdims=keepdim) ** (1 / p)


class VectorNorm(Function):
    """(sum |x|^p)^(1/p) along dims: d = x / norm for p = 2 (0 where the norm is 0),
    sgn(x) for p = 1, sgn(x) |x|^(p-1) / norm^(p-1) in general"""
    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, x, p, dims, keepdim):
        axes = tuple(range(x.ndim)) if dims is None else dims
        out = tensor_of(np.asarray(_norm_values(x._data, p, axes, keepdim), dtype=x._data.dtype))
        ctx.p, ctx.axes, ctx.dims, ctx.keepdim = p, axes, dims, keepdim
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, norm = ctx.saved_tensors
        grad = _restore(grad, x.shape, ctx.dims, ctx.keepdim)
        norm = _restore(norm, x.shape, ctx.dims, ctx.keepdim)
        return _norm_gradient(grad, x, norm, ctx.p, ctx.axes), None, None, None


def _norm_gradient(grad: Tensor, x: Tensor, norm: Tensor, p: float,
                   axes: tuple) -> Tensor | None:
    """d norm / d x times grad, PyTorch's norm_backward (see VectorNorm), with the norm and
    its gradient already broadcastable to x (the reduced dimensions given back)."""
    if p == 0:  # a count of non-zero entries: no gradient at all (None), as in PyTorch
        return None
    if p == 1:
        return Sgn.apply(x) * grad
    if p == 2:
        return grad * masked_fill(x / norm, norm == 0, 0)
    if math.isinf(p):  # shared evenly among the entries that reach the norm
        hits = tensor_of(np.abs(x._data) == norm._data)
        count = tensor_of(hits._data.sum(axis=axes, keepdims=True).astype(x._data.dtype))
        return Sgn.apply(x) * where(hits, grad / count, 0.0)
    if p < 1:
        scaled = Sgn.apply(x) * masked_fill(x.abs() ** (p - 1), x == 0, 0)
        return scaled * grad * norm ** (1 - p)
    scaled = Sgn.apply(x) * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    return scaled * masked_fill(grad / norm ** (p - 1), norm == 0, 0)


class Dist(Function):
    """the p-norm of a - b: d a = the norm's gradient at a - b, d b = minus it (each worked
    out on its own, as in PyTorch)"""
    node_name = "DistBackward0"

    @staticmethod
    def forward(ctx, a, b, p):
        diff = tensor_of(a._data - b._data)
        axes = tuple(range(diff.ndim))
        out = tensor_of(np.asarray(_norm_values(diff._data, p, axes, False), dtype=a._data.dtype))
        ctx.p, ctx.axes = p, axes
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        if ctx.p == 0:
            return None, None, None
        need = ctx.needs_input_grad
        grad_a = _norm_gradient(grad, a - b, out, ctx.p, ctx.axes) if need[0] else None
        grad_b = -_norm_gradient(grad, a - b, out, ctx.p, ctx.axes) if need[1] else None
        return grad_a, grad_b, None


def dist(a: Tensor, b: Tensor, p: float = 2) -> Tensor:
    """torch.dist: the p-norm of a - b (broadcast)."""
    return Dist.apply(*as_tensor_pair(a, b), float(p))


def vector_norm(x: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,  # noqa: A002
                *, dtype: Any = None) -> Tensor:
    """The `ord`-norm of `x`'s entries (all of them, or along `dim`), as
    torch.linalg.vector_norm."""
    if isinstance(ord, str) or isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not "
                        f"{type(ord).__name__}")
    if dtype is not None:
        x = x.to(dtype)
    if not x.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {x.dtype.tensor_type.replace('Tensor', '')}")
    dims = None if dim is None else (distinct_dims(dim, x.ndim) or None)
    if x.numel() == 0 and ord < 0:
        raise RuntimeError("linalg.vector_norm cannot compute the "
                           f"{ord} norm on an empty tensor because the operation does not "
                           "have an identity")
    return VectorNorm.apply(x, float(ord), dims, keepdim)


def norm(x: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: Any = None) -> Tensor:
    """`t.norm(p, dim)` and `torch.norm`: PyTorch hands every vector norm (and the Frobenius
    norm, which is the 2-norm of all entries) to `linalg.vector_norm`."""
    if isinstance(p, str):
        dims = (dim,) if isinstance(dim, int) else dim
        if p != "fro" or (dims is not None and len(dims) > 2):
            raise NotImplementedError(f"minigrad is a subset of PyTorch: norm with p='{p}' "
                                      "(a matrix norm) is not implemented; p='fro' or a number is")
        p = 2
    return vector_norm(x, 2.0 if p is None else p, dim, keepdim, dtype=dtype)
