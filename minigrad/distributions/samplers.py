"""torch.binomial's and torch.poisson's CPU samplers (ATen's Distributions.h and .cpp), one
element after the other from the generator's doubles (53 bits of a 64-bit draw), so that a
seeded Binomial or Poisson draws PyTorch's numbers. Binomial: inversion below a mean of 10,
Hormann's BTRS rejection above; Poisson: products of uniforms below a rate of 10, Hormann's
PTRS above. float32 arithmetic is kept where PyTorch's template does it in the tensor's type."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k < len(_TAIL):
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _inversion(count: Any, prob: Any, uniform: Any) -> Any:
    geom_sum, num_geom = 0.0, 0
    logprob = math.log1p(-float(prob))
    while True:
        geom = math.ceil(math.log(uniform()) / logprob)
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom += 1


def _btrs(count: Any, prob: Any, uniform: Any) -> float:
    t = type(count)  # the tensor's type (np.float32 or np.float64): PyTorch's scalar_t
    stddev = math.sqrt(float(count * prob * (t(1) - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob) / float(t(1) - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor(float((count + t(1)) * prob))
    n = float(count)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = float(t(math.floor((2 * a / us + b) * u + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                 + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                 + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(n - m)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if v <= upper:
            return k


def binomial(count: np.ndarray, prob: np.ndarray, generator: Any) -> np.ndarray:
    """torch.binomial(count, prob): one draw per element, in order."""
    uniform = lambda: float(generator._uniform01(1, np.float64)[0])  # noqa: E731
    out = np.empty(count.shape, count.dtype)
    flat = out.reshape(-1)
    for i, (n, p) in enumerate(zip(count.reshape(-1), prob.reshape(-1))):
        t = type(n)
        if n <= 0 or p <= 0:
            flat[i] = 0
        elif p >= 1:
            flat[i] = n
        elif p <= 0.5:
            flat[i] = (_btrs(n, p, uniform) if n * p >= 10 else _inversion(n, p, uniform))
        elif p > 0.5:
            q = t(1) - p
            flat[i] = n - t(_btrs(n, q, uniform) if n * q >= 10 else _inversion(n, q, uniform))
        else:
            flat[i] = np.nan
    return out


def poisson(rate: np.ndarray, generator: Any) -> np.ndarray:
    """torch.poisson(rate): one draw per element, in order."""
    uniform = lambda: float(generator._uniform01(1, np.float64)[0])  # noqa: E731
    out = np.empty(rate.shape, rate.dtype)
    flat = out.reshape(-1)
    for i, lam in enumerate(rate.reshape(-1)):
        flat[i] = _one_poisson(float(lam), uniform)
    return out


def _one_poisson(lam: float, uniform: Any) -> int:
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1)):
                return k
    if lam == 0:
        return 0
    x, prod, enlam = 0, 1.0, math.exp(-lam)
    while True:
        prod *= uniform()
        if prod > enlam:
            x += 1
        else:
            return x
