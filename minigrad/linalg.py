"""minigrad.linalg: the vector norms of torch.linalg (`norm`, `vector_norm`) and
`matrix_power`. Matrix norms other than the Frobenius norm (ord=2 on a matrix, 'nuc', 1, inf)
and inverses are PyTorch-only."""
from __future__ import annotations

from typing import Any

from .creation import eye
from .ops.norm import vector_norm
from .tensor import Tensor

__all__ = ["matrix_power", "norm", "vector_norm"]


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


def matrix_power(A: Tensor, n: int) -> Tensor:  # noqa: N803
    """A @ A @ ... (n times), with PyTorch's products in PyTorch's order (so its roundings and
    grad_fn): A @ A, then (A @ A) @ A, and from n = 4 on, by the binary digits of n."""
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {A.shape[-2]} by {A.shape[-1]} matrices")
    if n < 0:
        raise RuntimeError("minigrad is a subset of PyTorch: it has no linalg.inv, so no "
                           "matrix_power with a negative exponent")
    if n == 0:  # the identity, written over a copy of A, as PyTorch's (grad_fn CopyBackwards)
        return A.clone().copy_(eye(A.shape[-1], dtype=A.dtype).expand_as(A))
    if n == 1:
        return A.clone()
    if n == 2:
        return A.matmul(A)
    if n == 3:
        return A.matmul(A).matmul(A)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else z.matmul(z)
        if bit:
            result = z if result is None else result.matmul(z)
    return result
