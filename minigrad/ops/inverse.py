"""torch.linalg.inv (torch.inverse) and torch.linalg.det (torch.det): LinalgInvExBackward0 and
LinalgDetBackward0, with PyTorch's checks and its words for a singular matrix (the first zero
on U's diagonal of the LU factorisation with partial pivoting, as LAPACK's getrf reports it).
Both backwards are written with tensor ops, so create_graph differentiates them again."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of


class LinAlgError(RuntimeError):
    """PyTorch's torch.linalg.LinAlgError (its class is torch._C._LinAlgError)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"


def _check(name: str, a: Tensor) -> None:
    if a.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")
    if not a.dtype.is_floating_point:
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as "
                           f"input. Got {a.dtype.scalar_name}")


def _first_zero_pivot(matrix: np.ndarray) -> int:
    """1 + the index of the first zero on U's diagonal (getrf's info), or 0 if there is none."""
    u = matrix.astype(np.float64)
    n = u.shape[0]
    first = 0
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            first = first or k + 1
            continue
        u[[k, p]] = u[[p, k]]
        u[k + 1:, k:] -= np.outer(u[k + 1:, k] / u[k, k], u[k, k:])
    return first


class LinalgInvEx(Function):
    """inv(A): d A = -inv(A)^T @ g @ inv(A)^T"""
    node_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx, a):
        data = a._data
        for matrix in data.reshape(-1, *data.shape[-2:]) if data.size else ():
            zero = _first_zero_pivot(matrix)
            if zero:
                raise LinAlgError(f"linalg.inv: The diagonal element {zero} is zero, the "
                                  "inversion could not be completed because the input matrix "
                                  "is singular.")
        out = tensor_of(np.linalg.inv(data).astype(data.dtype))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (inverse,) = ctx.saved_tensors
        transposed = inverse.mT
        return -(transposed @ (grad @ transposed))


def inv(a: Tensor) -> Tensor:
    _check("inv", a)
    return LinalgInvEx.apply(a)


class LinalgDet(Function):
    """det(A): d A = g det(A) inv(A)^T, the cofactors; 0 where det(A) is 0, as PyTorch's
    formula (g det(A) times them) gives"""
    node_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx, a):
        out = tensor_of(np.asarray(np.linalg.det(a._data)).astype(a._data.dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, det = ctx.saved_tensors
        scale = (grad * det).unsqueeze(-1).unsqueeze(-1)
        if (det._data != 0).all():  # on tensors: create_graph differentiates it again
            return scale * inv(a).mT
        return scale * tensor_of(_cofactors(a._data))  # (singular: a constant, times 0)


def _cofactors(data: np.ndarray) -> np.ndarray:
    """det(A) inv(A)^T (the cofactor matrix) from the SVD, which also holds for a singular A."""
    u, s, vh = np.linalg.svd(data)
    sign = np.linalg.det(u) * np.linalg.det(vh)
    n = s.shape[-1]
    others = np.stack([np.prod(np.delete(s, i, axis=-1), axis=-1) for i in range(n)], axis=-1)
    adjugate_t = (u * (sign[..., None] * others)[..., None, :]) @ vh
    return adjugate_t.astype(data.dtype)


def det(a: Tensor) -> Tensor:
    _check("det", a)
    return LinalgDet.apply(a)
