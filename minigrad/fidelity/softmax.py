"""softmax and log_softmax as PyTorch's CPU kernels compute them (ATen's SoftMaxKernel.cpp, x86
with AVX2), bit for bit in float32, with their backward (`softmax_backward_like_torch`'s
docstring has its steps).

Both kernels take each row's max, the exps of `x - max` and their sum, in the same steps.
Along the last dimension each row is read as vectors of 8 floats (4 doubles): exp(x - max) by
SLEEF's vector exp (`Sleef_expf8_u10`, within an ulp, not always correctly rounded), the exps
added as `vec::reduce_all` adds (`_vector_total`). Along another dimension the exps of 8
neighbouring columns at a time are SLEEF's, those of the columns left over the C library's
(glibc's expf, `libm_expf`), and each column's sum runs from 0 down the dimension. Then softmax
multiplies each exp by `1 / sum` along the last dimension, divides it by the sum along
another; log_softmax computes `(x - max) - log(sum)` with SLEEF's vector log
(`Sleef_logf8_u10`, `sleef_logf`) in both cases. log_softmax's backward is
`grad - exp(out) * sum(grad)`, the exp SLEEF's again (the C library's for the columns left
over), the product and the difference one fused multiply-add, the sum in the forward's order.
A row of 16 softmax values then sums to exactly what PyTorch's do (a learner prints
`attention.sum(-1)` to see 1), and cross_entropy's loss prints PyTorch's digits. float64 takes
the same order with numpy's exp and log (SLEEF's double versions are not repeated here).
Checked against PyTorch 2.13 in tests/parity/test_sleef_exp_vs_torch.py and
tests/parity/test_log_softmax_bits_vs_torch.py.

Which vectors: PyTorch picks its kernels by the CPU at start-up. On one with AVX-512 (this
project's machines and CI's, an AMD EPYC) its default reads vectors of 16 floats, which adds
the exps in another order and vectorises other columns; AVX2 CPUs (most laptops: Intel's
since Alder Lake have no AVX-512) and `ATEN_CPU_CAPABILITY=avx2` read 8. minigrad follows
AVX2: any x86-64 machine can run PyTorch's AVX2 kernels, so the parity tests pin PyTorch to
them (tests/harness/programs.py's TORCH_CPU_CAPABILITY) and pass on every machine, and a
learner's laptop most often gives the same bits. AVX-512's results against AVX2's, on 80
random float32 cases (226,659 elements, 1 to 3 dims of up to 39, any dim;
`python scripts/compare_cpu_capabilities.py`): softmax 7.2% of elements differ, its backward
12.3%, log_softmax 2.3%, its backward 7.2%, sigmoid 0.01%; minigrad against AVX2: 0 in
each.
`lanes=16` gives AVX-512's forward bits (checked the same way), not used by minigrad.
PyTorch on several threads splits a softmax along a dimension other than the last among
them, which changes which columns its vector loop takes: minigrad gives one thread's bits."""
from __future__ import annotations

import numpy as np

from .avx_mathfun import fma
from .ranges import fma64
from .summation import _in_order
from .vector_math import libm_expf, sleef_expf, sleef_logf

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # AVX2's vectors


def softmax_like_torch(data: np.ndarray, dim: int, lanes: int | None = None) -> np.ndarray:
    """softmax of `data` (at least 1-d) along `dim`, for float32 and float64 in PyTorch's order;
    other dtypes as numpy computes it."""
    if data.dtype not in _LANES or not data.size:
        exps = np.exp(data - data.max(axis=dim, keepdims=True, initial=-np.inf))
        return exps / exps.sum(axis=dim, keepdims=True)
    exps, total = _exps_and_sums(data - _row_max(data, dim), dim, lanes)
    if dim == data.ndim - 1:
        return exps * (data.dtype.type(1) / total)
    return exps / total


def log_softmax_like_torch(data: np.ndarray, dim: int, lanes: int | None = None) -> np.ndarray:
    """log_softmax of `data` (at least 1-d) along `dim`: `(x - max) - log(sum(exp(x - max)))`
    in PyTorch's order for float32 and float64; other dtypes as numpy computes it."""
    if data.dtype not in _LANES or not data.size:
        shifted = data - data.max(axis=dim, keepdims=True, initial=-np.inf)
        return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
    shifted = data - _row_max(data, dim)
    _, total = _exps_and_sums(shifted, dim, lanes)
    return shifted - (sleef_logf(total) if data.dtype == np.float32 else np.log(total))


def log_softmax_backward_like_torch(grad: np.ndarray, out: np.ndarray, dim: int) -> np.ndarray:
    """`grad - exp(out) * grad.sum(dim)`, log_softmax's gradient from its result `out`, as
    PyTorch's backward kernel rounds it (float32 and float64; others as numpy computes it)."""
    if out.dtype not in _LANES or grad.dtype != out.dtype or not out.size:
        return grad - np.exp(out) * grad.sum(axis=dim, keepdims=True)
    if dim == out.ndim - 1:
        rows = grad.reshape(-1, grad.shape[-1])
        total = _vector_total(rows, _LANES[out.dtype]).reshape(grad.shape[:-1] + (1,))
        exps = _vector_exp(out)
    else:
        columns = grad.reshape(int(np.prod(grad.shape[:dim])), grad.shape[dim], -1)
        total = _in_order(columns, axis=1, initial=0)  # from 0, one row after the other
        total = total.reshape(grad.shape[:dim] + (1,) + grad.shape[dim + 1:])
        exps = _column_exps(out.reshape(columns.shape), _LANES[out.dtype]).reshape(out.shape)
    fused = fma if out.dtype == np.float32 else fma64
    return fused(-exps, np.broadcast_to(total, out.shape), grad).astype(out.dtype)


def softmax_backward_like_torch(grad: np.ndarray, out: np.ndarray, dim: int) -> np.ndarray:
    """`(grad - (grad * out).sum(dim)) * out`, softmax's gradient from its result `out`, as
    PyTorch's backward kernel rounds it (float32 and float64; others as numpy computes it).
    Along the last dimension the products of whole vectors are rounded, then added vector by
    vector, and those of the elements left over are added into the first lanes each with one
    fused multiply-add; along another dimension every product is fused into a sum that runs
    from 0 down the dimension. These are the steps of PyTorch on one thread
    (`torch.set_num_threads(1)`, OMP_NUM_THREADS=1), which the parity tests compare with: its
    build compiles the loop twice, and the copy its threads run rounds the leftover products
    apart (one row in 5 to 10 whose length is not a multiple of 8 then differs by an ulp).
    Found by trying each way against PyTorch."""
    if out.dtype not in _LANES or grad.dtype != out.dtype or not out.size:
        return (grad - (grad * out).sum(axis=dim, keepdims=True)) * out
    fused = fma if out.dtype == np.float32 else fma64
    if dim == out.ndim - 1:
        lanes, n = _LANES[out.dtype], out.shape[-1]
        g, o = grad.reshape(-1, n), out.reshape(-1, n)
        whole = n // lanes * lanes
        products = g * o
        if n < lanes or whole == n:
            total = _vector_total(products, lanes)
        else:
            acc = _in_order(products[:, :whole].reshape(len(g), -1, lanes), axis=1)
            acc[:, :n - whole] = fused(g[:, whole:], o[:, whole:], acc[:, :n - whole])
            total = _minus_zero_kept(products, _lanes_added(acc))
        total = total.reshape(out.shape[:-1] + (1,))
    else:
        g = grad.reshape(int(np.prod(grad.shape[:dim])), grad.shape[dim], -1)
        o = out.reshape(g.shape)
        total = np.zeros((g.shape[0], g.shape[2]), out.dtype)
        for row in range(g.shape[1]):  # from 0, one row after the other
            total = fused(g[:, row], o[:, row], total).astype(out.dtype)
        total = total.reshape(out.shape[:dim] + (1,) + out.shape[dim + 1:])
    return (grad - total) * out


def _row_max(data: np.ndarray, dim: int) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return data.max(axis=dim, keepdims=True)


def _exps_and_sums(shifted: np.ndarray, dim: int, lanes: int | None) -> tuple:
    """exp(x - max) and its sum along `dim` (kept), as both kernels compute them."""
    lanes = lanes or _LANES[shifted.dtype]
    if dim == shifted.ndim - 1:
        exps = _vector_exp(shifted)
        total = _vector_total(exps.reshape(-1, exps.shape[-1]), lanes)
        return exps, total.reshape(shifted.shape[:-1] + (1,))
    columns = shifted.reshape(int(np.prod(shifted.shape[:dim])), shifted.shape[dim], -1)
    exps = _column_exps(columns, lanes)
    total = _in_order(exps, axis=1, initial=0)  # from 0, one row after the other
    return (exps.reshape(shifted.shape),
            total.reshape(shifted.shape[:dim] + (1,) + shifted.shape[dim + 1:]))


def _column_exps(columns: np.ndarray, lanes: int) -> np.ndarray:
    """exp of (outer, dim, inner) `columns`: SLEEF's for the first inner columns in whole
    vectors, the C library's (std::exp) for those left over."""
    if columns.dtype != np.float32:
        return np.exp(columns)
    vectorized = columns.shape[2] // lanes * lanes
    exps = np.empty(columns.shape, np.float32)
    exps[..., :vectorized] = sleef_expf(columns[..., :vectorized])
    exps[..., vectorized:] = libm_expf(columns[..., vectorized:])
    return exps


def _vector_exp(values: np.ndarray) -> np.ndarray:
    return sleef_expf(values) if values.dtype == np.float32 else np.exp(values)


def _vector_total(rows: np.ndarray, lanes: int) -> np.ndarray:
    """Each row of `rows` summed as ATen's `vec::reduce_all` with `+`: a row shorter than a vector
    left to right; else vectors added lane by lane, the elements left over into the first lanes,
    then the lanes: for float32 halves, quarters, pairs (AVX2's shuffles; AVX-512's start with
    halves of 16), for 4 float64 left to right."""
    n = rows.shape[1]
    if n < lanes:
        return _minus_zero_kept(rows, _in_order(rows.T))
    whole = n // lanes * lanes
    acc = _in_order(rows[:, :whole].reshape(len(rows), -1, lanes), axis=1)  # vector by vector
    acc[:, :n - whole] += rows[:, whole:]
    return _minus_zero_kept(rows, _lanes_added(acc))


def _minus_zero_kept(rows: np.ndarray, total: np.ndarray) -> np.ndarray:
    """`total` with -0.0 for the rows of nothing but -0.0: PyTorch adds a row up from its first
    element, numpy's reduce from +0.0, and the two differ there only (a row of -0.0 gradients
    then gets +0.0, as PyTorch's)."""
    if total.all():
        return total
    only_minus_zeros = np.all((rows == 0) & np.signbit(rows), axis=1)
    return np.where(only_minus_zeros, rows.dtype.type(-0.0), total)


def _lanes_added(acc: np.ndarray) -> np.ndarray:
    """The lanes of each row of `acc` added as `vec_reduce_all` adds them."""
    if acc.dtype == np.float64:
        return _in_order(acc.T)
    while acc.shape[1] > 1:
        acc = acc[:, :acc.shape[1] // 2] + acc[:, acc.shape[1] // 2:]
    return acc[:, 0]
