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
tests/parity/test_tutorial_apis_vs_torch.py measures it. (Composite operations such as sigmoid,
softmax and log_softmax run PyTorch's own vectorised code instead, whose float32 exp and log are
SLEEF's, repeated by `sleef_expf` and `sleef_logf` bit for bit, and whose leftover elements take
glibc's expf, `libm_expf`.) ARM builds (macOS, Linux aarch64) use SLEEF or the C library
instead, with other last bits. float64 values are numpy's, as they were.

tanh's backward is exact: PyTorch computes grad * (1 - y * y) with `1 - y * y` as one fused
multiply-add (GCC fuses the multiply and the subtraction on x86-64), where numpy rounds twice;
the two differ in more than half of float32 gradients. The fused form is bit for bit
PyTorch's, in float32 and float64, on any x86-64 CPU with FMA (every AVX2 one)."""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from .avx_mathfun import fma
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


# elements per chunk: a float64 temporary of 128,000 bytes, under glibc's malloc's threshold
# (128 KiB) above which each new array is fresh pages from the system
_CHUNK = 16_000


def _in_chunks(kernel: Callable) -> Callable:
    """`kernel`, a float32 function of many elementwise steps, run on at most _CHUNK elements
    at a time. Each step makes a temporary array; on a whole large array those are fresh,
    page-faulted memory (and on a million values, out of cache), in chunks reused heap memory.
    Same bits: each element's steps are its own. Earns 40-70% on 32,000 to a million values
    (benchmarks/softmax_cost.py, benchmarks/tricks.md); costs 3-30% on 32,000 to 64,000 values
    in a process whose malloc already hands out large arrays from the heap (`--warm`)."""
    @functools.wraps(kernel)
    def in_chunks(values: np.ndarray) -> np.ndarray:
        values = np.asarray(values, f32)
        if values.size <= _CHUNK:
            return kernel(values)
        out = np.empty(values.shape, f32)
        flat, flat_out = values.reshape(-1), out.reshape(-1)
        for start in range(0, flat.size, _CHUNK):
            flat_out[start:start + _CHUNK] = kernel(flat[start:start + _CHUNK])
        return out
    return in_chunks


# SLEEF's xexpf (sleefsimdsp.c): q = round(d / ln 2), s = d - q ln 2 in two parts, a degree-6
# polynomial in s, scaled by 2**q; its multiply-adds are FMA instructions on AVX2.
_R_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = f32(0.693145751953125), f32(1.428606765330187045e-06)
_EXP_POLY = [f32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                              0.00833336077630519866943359, 0.0416664853692054748535156,
                              0.166666671633720397949219, 0.5)]


@_in_chunks
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


# SLEEF's xlogf_u1 (sleefsimdsp.c, the AVX2 build): d = m * 2**e with m in [0.75, 1.5), then
# log d = e ln 2 + 2 atanh(x), x = (m - 1) / (m + 1), carried as float32 pairs (hi + lo, the
# "double-float" arithmetic of SLEEF's df.h) so that the result is within an ulp.
_LN2_HI, _LN2_LO = f32(0.69314718246459960938), f32(-1.904654323148236017e-09)
_LOG_POLY = [f32(c) for c in (0.3027294874, 0.3996108174, 0.6666694880)]


@_in_chunks
def sleef_logf(d: np.ndarray) -> np.ndarray:
    """log of float32 `d` as SLEEF's Sleef_logf8_u10, PyTorch's `Vectorized<float>::log()`
    (which log_softmax takes for the log of each row's sum). Every step is a float32 operation
    as SLEEF orders it; its multiply-adds are FMA instructions (`fma`). The AVX-512 build
    (Sleef_logf16_u10) reads the exponent and mantissa with other instructions and gives the
    same bits: both compared with this over every positive float32."""
    d = np.asarray(d, f32)
    with np.errstate(all="ignore"):  # 0, the infinities, negatives, nan: set at the end
        tiny = d < np.finfo(f32).tiny  # subnormals: scaled up by 2**64 first
        scaled = np.where(tiny, d * f32(2.0 ** 64), d)
        e = ((np.asarray(scaled * f32(1 / 0.75)).view(np.int32) >> 23) & 0xFF) - 0x7F
        m = (np.asarray(scaled).view(np.int32) - (e << 23)).view(f32)  # d / 2**e, exactly
        e = np.where(tiny, e - 64, e).astype(f32)
        # e ln 2 as hi + lo
        s_hi = _LN2_HI * e
        s_lo = fma(_LN2_LO, e, fma(_LN2_HI, e, -s_hi))
        # x = (m - 1) / (m + 1) as hi + lo: numerator and denominator each an exact pair
        n_hi, n_lo = _two_sum(f32(-1), m)
        q_hi, q_lo = _two_sum(f32(1), m)
        inverse = f32(1) / q_hi
        x_hi = n_hi * inverse
        residual = fma(-q_lo, inverse, fma(-q_hi, inverse, f32(1)))
        x_lo = fma(x_hi, residual, fma(n_lo, inverse, fma(inverse, n_hi, -x_hi)))
        x2 = x_hi * x_hi
        poly = fma(fma(_LOG_POLY[0], x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
        # s += 2x, then s += x**3 * poly, each a double-float addition
        total = s_hi + f32(2) * x_hi
        s_lo = (((s_hi - total) + f32(2) * x_hi) + s_lo) + f32(2) * x_lo
        cube = (x2 * x_hi) * poly
        r = total + cube
        r = r + (((total - r) + cube) + s_lo)
    r = np.where(d == np.inf, f32(np.inf), r)
    r = np.where((d < 0) | np.isnan(d), f32(np.nan), r)
    return np.where(d == 0, f32(-np.inf), r).astype(f32)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple:
    """a + b as the rounded sum and its exact error (SLEEF's dfadd2)."""
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


# glibc's expf (since 2.27; sysdeps/ieee754/flt-32/e_expf.c): exp(x) = 2**(k/32) * 2**(r/32)
# with k an integer, 2**(k/32) from a table of 32 doubles, 2**(r/32) a cubic, all in float64
_EXP2_TABLE = np.array([
    0x3FF0000000000000, 0x3FEFD9B0D3158574, 0x3FEFB5586CF9890F, 0x3FEF9301D0125B51,
    0x3FEF72B83C7D517B, 0x3FEF54873168B9AA, 0x3FEF387A6E756238, 0x3FEF1E9DF51FDEE1,
    0x3FEF06FE0A31B715, 0x3FEEF1A7373AA9CB, 0x3FEEDEA64C123422, 0x3FEECE086061892D,
    0x3FEEBFDAD5362A27, 0x3FEEB42B569D4F82, 0x3FEEAB07DD485429, 0x3FEEA47EB03A5585,
    0x3FEEA09E667F3BCD, 0x3FEE9F75E8EC5F74, 0x3FEEA11473EB0187, 0x3FEEA589994CCE13,
    0x3FEEACE5422AA0DB, 0x3FEEB737B0CDC5E5, 0x3FEEC49182A3F090, 0x3FEED503B23E255D,
    0x3FEEE89F995AD3AD, 0x3FEEFF76F2FB5E47, 0x3FEF199BDD85529C, 0x3FEF3720DCEF9069,
    0x3FEF5818DCFBA487, 0x3FEF7C97337B9B5F, 0x3FEFA4AFA2A490DA, 0x3FEFD0765B6E4540],
    dtype=np.uint64)
_EXP_SCALE = float.fromhex("0x1.71547652b82fep+0") * 32  # 32 / ln 2
_EXP_SHIFT = float.fromhex("0x1.8p+52")  # adding it rounds to an integer, kept in the low bits
_EXP_CUBIC = [float.fromhex(c) / 32 ** p for c, p in (("0x1.c6af84b912394p-5", 3),
                                                      ("0x1.ebfce50fac4f3p-3", 2),
                                                      ("0x1.62e42ff0c52d6p-1", 1))]


@_in_chunks
def libm_expf(x: np.ndarray) -> np.ndarray:
    """exp of float32 `x` as glibc's expf, which PyTorch's kernels call as std::exp on the
    elements a vector loop leaves over. Within 0.502 ulp, so not always correctly rounded: one
    float32 in 25,000 comes out otherwise than exp rounded once. Checked against the C
    library's own on 859 million float32 (every fifth). Its float64 steps reuse three arrays
    (`out=`, in place): 1.7 times quicker than a new array per step (benchmarks/tricks.md)."""
    x = np.asarray(x, f32)
    z, r, y = np.empty(x.shape), np.empty(x.shape), np.empty(x.shape)
    with np.errstate(all="ignore"):  # overflow, underflow and nan: set below
        np.multiply(x, _EXP_SCALE, out=z, dtype=np.float64)
        shifted = np.add(z, _EXP_SHIFT, out=y)
        k = shifted.view(np.uint64)
        r = np.subtract(z, np.subtract(shifted, _EXP_SHIFT, out=r), out=r)
        scale = np.add(_EXP2_TABLE[k & np.uint64(31)], k << np.uint64(47), out=k).view(np.float64)
        c0, c1, c2 = _EXP_CUBIC
        y = np.multiply(r, c0, out=z)  # y = ((c0 r + c1) r**2 + (c2 r + 1)) * scale
        y += c1
        y *= r * r
        r *= c2
        r += 1.0
        y += r
        y *= scale
        np.copyto(y, np.inf, where=x > f32(float.fromhex("0x1.62e42ep6")))
        np.copyto(y, 0.0, where=x < f32(-float.fromhex("0x1.9fe368p6")))
        np.copyto(y, x, where=np.isnan(x))
        return y.astype(f32)


def sigmoid_like_torch(data: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-data)) as PyTorch's sigmoid kernel computes it: float32 in steps of 16
    elements (two AVX2 vectors) with SLEEF's exp, the elements left over with the C library's
    (`libm_expf`); other dtypes with `exp_like_torch`."""
    if data.dtype != f32:
        return 1 / (1 + exp_like_torch(-data))
    flat, whole = data.reshape(-1), data.size // 16 * 16
    result = np.empty(flat.shape, f32)
    result[:whole] = _vectorized_sigmoid(flat[:whole])
    result[whole:] = 1 / (1 + libm_expf(-flat[whole:]))
    return result.reshape(data.shape)


@_in_chunks  # in chunks as a whole, not only its exp: 1.6 times quicker (benchmarks/tricks.md)
def _vectorized_sigmoid(data: np.ndarray) -> np.ndarray:
    return 1 / (1 + sleef_expf(-data))
