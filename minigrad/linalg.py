"""minigrad.linalg: the vector norms of torch.linalg (`norm`, `vector_norm`), `cross`,
`matrix_power`, `inv` and `det`. Matrix norms other than the Frobenius norm (ord=2 on a matrix,
'nuc', 1, inf) and the factorisations are PyTorch-only."""
from __future__ import annotations

from typing import Any

from .ops.inverse import LinAlgError, det, inv
from .ops.linalg import cross as _cross
from .ops.linalg import matrix_power
from .ops.norm import vector_norm
from .tensor import Tensor

__all__ = ["LinAlgError", "cross", "det", "inv", "matrix_power", "norm", "vector_norm"]


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
