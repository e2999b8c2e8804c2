"""`arange` and `linspace` with float steps, computed as PyTorch's CPU kernels compute them.

The i-th value of `arange(start, end, step)` is `start + step * i` in the real numbers, but a
float kernel rounds, and where it rounds decides the last bits: `torch.arange(-8.0, 8.0, 0.1)`
ends with 7.8999996, where `start + step * i` rounded once would give 7.9000001. PyTorch's
kernel (ATen's RangeFactoriesKernel.cpp, built by GCC for x86-64, which fuses a multiply and an
add into one FMA) does this, in double precision whatever the tensor's float dtype:

- the values come in blocks of two vectors (8 floats or 4 doubles each, AVX2's width, which
  the kernel keeps on AVX-512 CPUs too). Each vector starts at `base = fma(step, i, start)`,
  rounded to the dtype, and its k-th lane is `fma(k, step, base)`, rounded to the dtype;
- the values after the last whole block are `fma(step, i, start)`, rounded to the dtype.

`linspace(start, end, steps)` is simpler: no vectors, everything in the tensor's dtype; the
first half counts up from start, the second half down from end:
`step = (end - start) / (steps - 1)`, then `fma(step, i, start)` below `steps // 2` and
`fma(-step, steps - 1 - i, end)` from there.

Checked bit for bit against PyTorch 2.13 (tests/engine/test_fidelity.py). Above 32768 values PyTorch
splits the range among its threads, each starting its own blocks, so its own last bits depend
on its thread count there: minigrad computes such a range as one thread would."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .avx_mathfun import fma as _fma32

_VECTOR_BYTES = 32  # AVX2: a vector holds 8 floats or 4 doubles


def arange_like_torch(start: float, end: float, step: float, numpy_dtype: type) -> np.ndarray:
    """`torch.arange(start, end, step, dtype=...)` for a float dtype (float32 or float64)."""
    dtype = np.dtype(numpy_dtype)
    count = max(0, math.ceil((float(end) - float(start)) / float(step)))
    start, step = np.float64(start), np.float64(step)
    lanes = _VECTOR_BYTES // dtype.itemsize
    blocked = count - count % (2 * lanes)  # the values made by whole blocks of two vectors
    bases = fma64(np.full(blocked // lanes, step), np.arange(0, blocked, lanes, dtype=np.float64),
                  np.full(blocked // lanes, start)).astype(dtype)
    lane = np.arange(lanes, dtype=np.float64)
    in_blocks = fma64(np.broadcast_to(lane, (len(bases), lanes)),
                      np.full((len(bases), lanes), step),
                      np.repeat(bases.astype(np.float64)[:, None], lanes, axis=1))
    tail = fma64(np.full(count - blocked, step), np.arange(blocked, count, dtype=np.float64),
                 np.full(count - blocked, start))
    return np.concatenate([in_blocks.reshape(-1), tail]).astype(dtype)


def linspace_like_torch(start: float, end: float, steps: int, numpy_dtype: type) -> np.ndarray:
    """`torch.linspace(start, end, steps, dtype=...)` for a float dtype (float32 or float64)."""
    f = np.dtype(numpy_dtype).type
    start, end = f(start), f(end)
    if steps <= 1:
        return np.full(steps, start, dtype=f)
    fused = _fma32 if f is np.float32 else fma64
    step = (end - start) / f(steps - 1)
    half = steps // 2
    up = np.arange(half).astype(f)
    down = (steps - 1 - np.arange(half, steps)).astype(f)
    return np.concatenate([fused(np.full(half, step), up, np.full(half, start)),
                           fused(np.full(steps - half, -step), down,
                                 np.full(steps - half, end))]).astype(f)


def fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c on float64 arrays, rounded once (as the FMA instruction); where the result is
    infinite or NaN, as numpy computes it.

    The product is split exactly into p + e (Dekker's product), p + c into s + e1 (Knuth's
    two-sum), e + e1 into t + r. The exact result is s + t + r, and s + t rounded is its
    rounding unless a half-way point between two doubles lies within r of s + t: those few
    values (none, mostly) are computed exactly, with fractions."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    a, b, c = (np.broadcast_to(np.asarray(v, dtype=np.float64), shape).reshape(-1)
               for v in (a, b, c))
    with np.errstate(all="ignore"):  # infinities and NaN: the error terms are not used there
        p = a * b
        e = _product_error(a, b, p)
        s = p + c
        e1 = _sum_error(p, c, s)
        t = e + e1
        r = _sum_error(e, e1, t)
        result = s + t
        exact = np.isfinite(result) & np.isfinite(e)  # elsewhere a * b + c, infinite or NaN
        result = np.where(exact, result, s)
        result = np.where((result == 0) & (s == 0), s, result)  # -0.0 + -0.0 stays -0.0
        to_half_way = 0.5 * np.spacing(np.abs(result)) - np.abs(_sum_error(s, t, result))
        for i in np.flatnonzero(exact & (r != 0) & (to_half_way <= np.abs(r))):
            result[i] = float(Fraction(a[i]) * Fraction(b[i]) + Fraction(c[i]))
    return result.reshape(shape)


def _sum_error(x: np.ndarray, y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """x + y - s exactly, where s is x + y rounded (two-sum)."""
    y_part = s - x
    return (x - (s - y_part)) + (y - y_part)


def _product_error(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """a * b - p exactly, where p is a * b rounded (Dekker's product, Veltkamp's split)."""
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    return ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scaled = x * 134217729.0  # 2**27 + 1
    hi = scaled - (scaled - x)
    return hi, x - hi
