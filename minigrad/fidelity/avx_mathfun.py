"""The float32 log, sine and cosine PyTorch's randn uses on x86 CPUs (AVX2), step by step.

For 16 or more float32 normal numbers, PyTorch's x86 build computes Box-Muller with
avx_mathfun.h's `log256_ps` and `sincos256_ps` (Cephes polynomials in float32), not with the C
library. Their results differ from exactly rounded ones in the last bit now and then, so to give
the same numbers minigrad repeats the same float32 operations in the same order. Every
intermediate is float32, as in the vector registers. GCC, which builds PyTorch for Linux, fuses
a multiply whose only use is an add into one FMA instruction (one rounding instead of two),
taking the multiplies in program order; `fma` marks each place where it does. Checked bit for
bit against PyTorch 2.13 on 80,000 numbers (tests/parity/test_tutorial_apis_vs_torch.py)."""
from __future__ import annotations

import numpy as np

f32 = np.float32

_LOG_P = [f32(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                           1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                           3.3333331174e-1)]
_SQRTHF = f32(0.707106781186547524)
_LOG_Q1, _LOG_Q2 = f32(-2.12194440e-4), f32(0.693359375)

_FOPI = f32(1.27323954473516)  # 4 / pi
_DP1, _DP2, _DP3 = f32(-0.78515625), f32(-2.4187564849853515625e-4), f32(-3.77489497744594108e-8)
_COSCOF = [f32(c) for c in (2.443315711809948e-005, -1.388731625493765e-003,
                            4.166664568298827e-002)]
_SINCOF = [f32(c) for c in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once, as the FMA instruction the compiler makes of a multiply followed
    by an add. The product of two float32 is exact in float64, so only the sum rounds (twice,
    to float64 then float32, which differs from once only in rare ties)."""
    return (np.float64(a) * b + np.float64(c) if np.ndim(a) == 0 and np.ndim(c) == 0 else
            np.asarray(a, np.float64) * b + np.asarray(c, np.float64)).astype(f32)


def log(x: np.ndarray) -> np.ndarray:
    """log256_ps for positive normal float32 inputs (Box-Muller only gives it (0, 1])."""
    x = np.asarray(x, dtype=f32)
    bits = x.view(np.int32)
    exponent = ((bits >> 23) - 0x7F).astype(f32) + f32(1)
    x = ((bits & ~0x7F800000) | np.int32(0x3F000000)).view(f32)  # mantissa in [0.5, 1)
    small = x < _SQRTHF
    e = exponent - np.where(small, f32(1), f32(0))
    x = (x - f32(1)) + np.where(small, x, f32(0))
    z = x * x
    y = _LOG_P[0]
    for p in _LOG_P[1:]:
        y = fma(y, x, p)
    y = fma(y * x, z, e * _LOG_Q1)
    y = fma(-z, f32(0.5), y)
    return fma(e, _LOG_Q2, x + y)


def sincos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps: the angle reduced to [-pi/4, pi/4] by multiples of pi/4, then one of two
    polynomials per output, chosen by the octant."""
    x = np.asarray(x, dtype=f32)
    sign_sin = np.signbit(x)
    x = np.abs(x)
    octant = ((x * _FOPI).astype(np.int32) + 1) & ~1
    y = octant.astype(f32)
    swap_sin = (octant & 4) != 0
    use_sin_poly = (octant & 2) == 0
    x = fma(y, _DP3, fma(y, _DP2, fma(y, _DP1, x)))
    sign_cos = ((~(octant - 2)) & 4) != 0
    sign_sin = sign_sin ^ swap_sin
    z = x * x
    c = _COSCOF[0]
    c = fma(c, z, _COSCOF[1])
    c = fma(c, z, _COSCOF[2])
    c = fma(c * z, z, -(z * f32(0.5))) + f32(1)
    s = _SINCOF[0]
    s = fma(s, z, _SINCOF[1])
    s = fma(s, z, _SINCOF[2])
    s = fma(s * z, x, x)
    sin = np.where(use_sin_poly, s, c)
    cos = np.where(use_sin_poly, c, s)
    return np.where(sign_sin, -sin, sin), np.where(sign_cos, -cos, cos)
