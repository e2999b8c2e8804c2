"""float32 tanh, sin, cos, exp, log as near to PyTorch's as numpy gets; tanh's backward exactly.

PyTorch's x86-64 builds (the pip wheels for Linux and Windows) hand the sin, cos, tanh, exp,
log and sqrt of a tensor to Intel oneMKL's vector math functions (vmsSin, vmsTanh, ... in
high-accuracy mode; a debugger on `torch.sin` shows the call) from their AVX2 and AVX-512
kernels alike: one machine gives the same bits with either. MKL's code is closed, and its float32
results are correctly rounded except near the half-way point between two floats, where MKL
rounds the other way now and then (0.59 of an ulp away at most for sin, 0.51 for tanh). What
minigrad does for float32: each value computed in float64 and rounded once, i.e. correctly
rounded, which agrees with MKL's bits for about 99.9% of tanh's inputs, 99% of exp's, 95% of
sin's and cos's and 92% of log's (numpy's own float32 functions: 66%, 61%, 88%, 84%, 84%);
tests/parity/test_tutorial_apis_vs_torch.py measures it. (Composite operations such as sigmoid
and softmax run PyTorch's own vectorised code instead, whose float32 exp is SLEEF's, repeated by
`sleef_expf` bit for bit.) ARM builds (macOS, Linux aarch64) use SLEEF or the C library
instead, with other last bits. float64 values are numpy's, as they were.

tanh's backward is exact: PyTorch computes grad * (1 - y * y) with `1 - y * y` as one fused
multiply-add (GCC fuses the multiply and the subtraction on x86-64), where numpy rounds twice;
the two differ in more than half of float32 gradients. The fused form is bit for bit
PyTorch's, in float32 and float64, on any x86-64 CPU with FMA (every AVX2 one)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from .ranges import fma64

f32 = np.float32


def _rounded_from_float64(function: Callable) -> Callable:
    def like_torch(data: np.ndarray) -> np.ndarray:
        if data.dtype == np.float32:
            return function(data.astype(np.float64)).astype(np.float32)
        return function(data)
    like_torch.__name__ = f"{function.__name__}_like_torch"
    like_torch.__doc__ = f"np.{function.__name__}(data); for float32, correctly rounded."
    return like_torch


tanh_like_torch = _rounded_from_float64(np.tanh)
sin_like_torch = _rounded_from_float64(np.sin)
cos_like_torch = _rounded_from_float64(np.cos)
exp_like_torch = _rounded_from_float64(np.exp)
log_like_torch = _rounded_from_float64(np.log)


def sqrt_like_torch(data: np.ndarray) -> np.ndarray:
    """np.sqrt(data), correctly rounded. MKL's float32 sqrt, which PyTorch's x86-64 builds
    call, is correctly rounded on some CPUs and not on others (seen on an AMD EPYC with
    AVX-512: one value in five an ulp off, whatever the tensor's size), and its algorithm is
    not published: minigrad keeps the correctly rounded one. Adam's and RMSprop's steps call
    it here, where that difference is the only one left between their float32 results and
    PyTorch's (tests/parity/test_tutorial_names_vs_torch.py swaps in PyTorch's sqrt to check)."""
    return np.sqrt(data)


def tanh_backward_like_torch(grad: np.ndarray, result: np.ndarray) -> np.ndarray:
    """grad * (1 - result * result), with `1 - result * result` rounded once: for float32,
    the square is exact in float64 and only the difference rounds (as fidelity.fma)."""
    if result.dtype == np.float32:
        return grad * (1.0 - np.square(result, dtype=np.float64)).astype(np.float32)
    if result.dtype == np.float64:
        return grad * fma64(-result, result, np.ones_like(result))
    return grad * (1 - result * result)


# SLEEF's xexpf (sleefsimdsp.c): q = round(d / ln 2), s = d - q ln 2 in two parts, a degree-6
# polynomial in s, scaled by 2**q; its multiply-adds are FMA instructions on AVX2.
_R_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = f32(0.693145751953125), f32(1.428606765330187045e-06)
_EXP_POLY = [f32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                              0.00833336077630519866943359, 0.0416664853692054748535156,
                              0.166666671633720397949219, 0.5)]


def sleef_expf(d: np.ndarray) -> np.ndarray:
    """exp of float32 `d` as SLEEF's Sleef_expf8_u10, PyTorch's `Vectorized<float>::exp()`.
    Each multiply-add is an FMA, computed as `fma` does (a float32 product is exact in float64,
    the sum rounds to float32), written out on float64 arrays to keep numpy calls few."""
    d = np.asarray(d, f32)
    with np.errstate(all="ignore"):  # nan and the infinities: masked or carried through below
        q = np.rint(np.clip(d * _R_LN2, -200, 200)).astype(np.int32)
        q64, d64 = q.astype(np.float64), d.astype(np.float64)
        s = (q64 * -np.float64(_L2U) + d64).astype(f32).astype(np.float64)
        s = (q64 * -np.float64(_L2L) + s).astype(f32).astype(np.float64)
        u = np.float64(_EXP_POLY[0])
        for c in _EXP_POLY[1:]:
            u = (u * s + np.float64(c)).astype(f32).astype(np.float64)
        square = (s * s).astype(f32).astype(np.float64)
        u = f32(1) + (square * u + s).astype(f32)
        half = q >> 1  # 2**q as two factors, as SLEEF's vldexp2 (neither overflows alone)
        u = u * np.ldexp(f32(1), half).astype(f32) * np.ldexp(f32(1), q - half).astype(f32)
    u = np.where(d < -104, f32(0), u)
    return np.where(d > 100, f32(np.inf), u).astype(f32)


def sigmoid_like_torch(data: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-data)) as PyTorch's sigmoid kernel computes it: float32 in steps of 16
    elements (two AVX2 vectors) with SLEEF's exp, the elements left over with the C library's
    (correctly rounded); other dtypes with `exp_like_torch`."""
    exps = exp_like_torch(-data)
    if data.dtype == f32:
        flat, whole = exps.reshape(-1), data.size // 16 * 16
        flat[:whole] = sleef_expf(-data.reshape(-1)[:whole])
    return 1 / (1 + exps)
