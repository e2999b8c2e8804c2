"""Matrix products with a short inner dimension, rounded as PyTorch's CPU build rounds them.

numpy's `a @ b` (OpenBLAS) multiplies and adds in one fused step along the inner dimension.
PyTorch 2.13's CPU build (MKL) does so for most shapes, but when the inner dimension is 2 to 4
and the product is thin (at most 3 rows, or at most 11 columns: every matrix-vector product,
`X @ w` in a linear regression) it rounds each product to the dtype first and then adds them
left to right. The last bit differs, and a training loop that prints a weight shows it in its
fourth digit. Measured on torch 2.13 for float32 and float64 over rows 1-2000 and columns
1-1000, batched products included; a dot product of two vectors rounds this way up to 3
elements in float32 and 2 in float64. An inner dimension of 1 is one product, exact, but
numpy's BLAS adds it to +0.0, which a product of -0.0 shows (`_is_outer_product`). Other
shapes keep numpy's product."""
from __future__ import annotations

import numpy as np

_MAX_INNER = 4  # 1 is a single product, exact either way
_MAX_THIN_ROWS = 3
_MAX_THIN_COLUMNS = 11
_MAX_DOT = {np.dtype(np.float32): 3, np.dtype(np.float64): 2}


def matmul_like_torch(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a @ b`, rounded as PyTorch rounds it where the two differ."""
    if _is_outer_product(a, b):
        return a * b
    if not _rounds_each_product(a, b):
        return a @ b
    left = a[np.newaxis, :] if a.ndim == 1 else a  # a vector on the left is one row
    right = b[:, np.newaxis] if b.ndim == 1 else b  # a vector on the right is one column
    # from +0.0, as PyTorch's sum starts: products that are all -0.0 add up to +0.0
    total = 0.0 + left[..., :, 0:1] * right[..., 0:1, :]
    for j in range(1, a.shape[-1]):
        total = total + left[..., :, j:j + 1] * right[..., j:j + 1, :]
    if b.ndim == 1:
        total = total[..., 0]
    if a.ndim == 1:
        total = total[..., 0, :] if b.ndim > 1 else total[..., 0]
    return total


def _is_outer_product(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether PyTorch's product is the plain products, signs of zero kept: a matrix product
    (a batch of matrices by one matrix folds into one) with an inner dimension of 1, 2 or more
    rows and 2 or more columns, where numpy's BLAS adds each product to +0.0 (-0.0 becomes
    +0.0: a hinge loss's zero gradient times a negative weight). Matrix-vector and batched
    products add to +0.0 in PyTorch too. Measured on torch 2.13, 504 shapes."""
    return (a.shape[-1] == 1 and a.ndim >= 2 and b.ndim == 2 and a.size >= 2
            and b.shape[1] >= 2 and a.dtype == b.dtype and a.dtype.kind == "f")


def _rounds_each_product(a: np.ndarray, b: np.ndarray) -> bool:
    inner = a.shape[-1]
    if not 2 <= inner <= _MAX_INNER or a.dtype != b.dtype or a.dtype.kind != "f":
        return False
    if a.ndim == 1 and b.ndim == 1:
        return inner <= _MAX_DOT.get(a.dtype, 1)
    rows = 1 if a.ndim == 1 else a.shape[-2]
    columns = 1 if b.ndim == 1 else b.shape[-1]
    return rows <= _MAX_THIN_ROWS or columns <= _MAX_THIN_COLUMNS
