"""softmax's float32 values as PyTorch's CPU kernel computes them (ATen's SoftMaxKernel.cpp, x86
with AVX2), bit for bit.

Along the last dimension (`_vec_softmax_lastdim`) each row is read as vectors of 8 floats
(4 doubles): exp(x - max) by SLEEF's vector exp (`Sleef_expf8_u10`, within an ulp, not always
correctly rounded), the exps added as `vec::reduce_all` adds (`_vector_total`), and each exp
multiplied by `1 / sum` rather than divided by the sum. Along another dimension (`_vec_softmax`)
the exps of 8 neighbouring columns at a time are SLEEF's, those of the columns left over the C
library's (correctly rounded), each column's sum runs from 0 down the dimension, and the exps are
divided by it. A row of 16 softmax values then sums to exactly what PyTorch's do (a learner prints
`attention.sum(-1)` to see 1). float64 takes the same order with numpy's exp (SLEEF's double exp
is not repeated here: 9 values in 10 agree). Checked against PyTorch 2.13 in
tests/parity/test_sleef_exp_vs_torch.py."""
from __future__ import annotations

import numpy as np

from .summation import _in_order
from .vector_math import exp_like_torch, sleef_expf

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def softmax_like_torch(data: np.ndarray, dim: int) -> np.ndarray:
    """softmax of `data` (at least 1-d) along `dim`, for float32 and float64 in PyTorch's order;
    other dtypes as numpy computes it."""
    if data.dtype not in _LANES or not data.size:
        exps = np.exp(data - data.max(axis=dim, keepdims=True, initial=-np.inf))
        return exps / exps.sum(axis=dim, keepdims=True)
    top = data.max(axis=dim, keepdims=True)
    with np.errstate(invalid="ignore"):  # a row of -inf: nan, as PyTorch's
        shifted = data - top
    if dim == data.ndim - 1:
        exps = _vector_exp(shifted)
        total = _vector_total(exps.reshape(-1, exps.shape[-1]), _LANES[data.dtype])
        return exps * (data.dtype.type(1) / total).reshape(top.shape)
    outer, inner = data.shape[:dim], data.shape[dim + 1:]
    columns = shifted.reshape(int(np.prod(outer)), data.shape[dim], -1)
    vectorized = columns.shape[2] // _LANES[data.dtype] * _LANES[data.dtype]
    exps = exp_like_torch(columns)  # (std::exp: correctly rounded)
    exps[..., :vectorized] = _vector_exp(columns[..., :vectorized])
    total = _in_order(exps, axis=1, initial=0)[:, None]  # from 0, one row after the other
    return (exps / total).reshape(data.shape)


def _vector_exp(values: np.ndarray) -> np.ndarray:
    return sleef_expf(values) if values.dtype == np.float32 else np.exp(values)


def _vector_total(rows: np.ndarray, lanes: int) -> np.ndarray:
    """Each row of `rows` summed as ATen's `vec::reduce_all` with `+`: a row shorter than a vector
    left to right; else vectors added lane by lane, the elements left over into the first lanes,
    then the lanes: for 8 float32, halves, quarters and pairs (AVX2's shuffles), for 4 float64
    left to right."""
    n = rows.shape[1]
    if n < lanes:
        return _in_order(rows.T)
    whole = n // lanes * lanes
    acc = _in_order(rows[:, :whole].reshape(len(rows), -1, lanes), axis=1)  # vector by vector
    acc[:, :n - whole] += rows[:, whole:]
    if lanes == 4:
        return _in_order(acc.T)
    acc = acc[:, :4] + acc[:, 4:]
    acc = acc[:, :2] + acc[:, 2:]
    return acc[:, 0] + acc[:, 1]
