"""minigrad.linalg: the vector norms of torch.linalg (`norm`, `vector_norm`), `cross`,
`matrix_power`, `inv`, `det` and `lstsq` (without its gradient). Matrix norms other than the Frobenius norm (ord=2 on a matrix,
'nuc', 1, inf) and the factorisations are PyTorch-only."""
from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from ._grad_mode import is_grad_enabled
from .ops.inverse import LinAlgError, det, inv
from .ops.linalg import cross as _cross
from .ops.linalg import matrix_power
from .ops.norm import vector_norm
from .tensor import Tensor, tensor_of

__all__ = ["LinAlgError", "cross", "det", "inv", "lstsq", "matrix_power", "norm", "vector_norm"]


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:  # noqa: A002
    """torch.linalg.cross: the cross product along `dim` (of length 3 in both)."""
    return _cross(input, other, dim, linalg=True)


def norm(A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False,  # noqa: A002, N803
         *, dtype: Any = None) -> Tensor:
    """torch.linalg.norm: with ord=None, the 2-norm of all entries (or along `dim`); a vector
    `ord` on a vector; 'fro' on a matrix."""
    dims = (dim,) if isinstance(dim, int) else None if dim is None else tuple(dim)
    if dims is not None and len(dims) not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                           f"Got {list(dims)}")
    if dims is None and ord is not None and A.ndim not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.ndim}D.")
    matrix = ord is not None and (len(dims) == 2 if dims is not None else A.ndim == 2)
    if (matrix or isinstance(ord, str)) and A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if isinstance(ord, str) and not matrix:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {dims[0]}")
    if matrix:
        if ord != "fro":
            raise NotImplementedError(f"minigrad is a subset of PyTorch: torch.linalg.norm with "
                                      f"ord={ord!r} on a matrix (a matrix norm) is not "
                                      "implemented; ord=None or 'fro' is")
        return vector_norm(A, 2, dims or (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


class LstsqResult(namedtuple("LstsqResult", ["solution", "residuals", "rank", "singular_values"])):
    """What torch.linalg.lstsq returns, printed as PyTorch's torch.return_types.linalg_lstsq."""
    __slots__ = ()

    def __repr__(self) -> str:
        return ("torch.return_types.linalg_lstsq(\n" + ",\n".join(
            f"{name}={value!r}" for name, value in zip(self._fields, self)) + ")")


LstsqResult.__name__ = LstsqResult.__qualname__ = "linalg_lstsq"
LstsqResult.__module__ = "torch.return_types"


def lstsq(A: Tensor, B: Tensor, rcond: Any = None, *, driver: Any = None) -> LstsqResult:  # noqa: N803
    """torch.linalg.lstsq with its CPU default driver ('gelsy'), for one matrix A: the
    least-squares solution X of A X = B in A's dtype, as gelsy finds it for a matrix of full
    column rank, by a Householder QR (LAPACK's geqrf, through numpy) and back substitution
    (gelsy also pivots the columns, so last bits may differ); a rank-deficient or wide A by
    numpy's SVD-based lstsq. The rank is returned; the residuals and singular values are
    empty, as gelsy leaves them."""
    if is_grad_enabled() and (A.requires_grad or B.requires_grad):
        raise NotImplementedError("minigrad is a subset of PyTorch: the gradient of "
                                  "torch.linalg.lstsq is not implemented")
    if A.ndim != 2 or B.ndim not in (1, 2) or driver not in (None, "gelsy"):
        raise NotImplementedError("minigrad is a subset of PyTorch: torch.linalg.lstsq takes "
                                  "one matrix A, a vector or matrix B and the driver 'gelsy' here")
    if A.shape[0] != B.shape[0]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    a, b = (t.detach().numpy() for t in (A, B))
    b = b.astype(a.dtype)
    m, n = a.shape
    rank = np.linalg.matrix_rank(a.astype(np.float64)) if a.size else 0
    if rank == n and m >= n:
        q, r = np.linalg.qr(a)
        rhs = q.T @ (b if b.ndim == 2 else b[:, None])
        solution = np.zeros_like(rhs)
        for i in reversed(range(n)):  # back substitution, row by row
            solution[i] = (rhs[i] - r[i, i + 1:] @ solution[i + 1:]) / r[i, i]
        solution = solution if b.ndim == 2 else solution[:, 0]
    else:
        solution = np.linalg.lstsq(a, b, rcond=rcond)[0].astype(a.dtype)
    return LstsqResult(tensor_of(solution), tensor_of(np.zeros(0, a.dtype)),
                       tensor_of(np.asarray(rank, dtype=np.int64)), tensor_of(np.zeros(0, a.dtype)))
