"""Small formulas computed in PyTorch's steps and roundings: the optimizers' updates, the logs of
binary cross-entropy, and the bounds of the layers' default initialisation.

On float32 and float64, PyTorch's compiled kernels fuse a multiply and the add that follows into one
rounding, and its lerp starts from the nearer end; numpy rounds each step. An ulp's difference in
a quarter of the elements shows in printed losses after a few hundred steps. Read each function
as the plain formula its docstring gives."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .avx_mathfun import fma
from .ranges import fma64


def add_scaled(a: Any, b: Any, alpha: float) -> Any:
    """a + alpha * b, as PyTorch's `a.add(b, alpha=alpha)`: one fused multiply-add."""
    dtype = np.asarray(a).dtype
    if dtype == np.float32:
        return fma(b, np.float32(alpha), a)
    if dtype == np.float64:
        return fma64(b, alpha, a)
    return a + alpha * b


def addcmul_(v: np.ndarray, a: np.ndarray, b: np.ndarray, value: float) -> None:
    """v += value * a * b in place, as `v.addcmul_(a, b, value=value)`: on float32
    (value * a) * b + v with the last multiply and the add fused."""
    if v.dtype == np.float32:
        v[...] = fma(np.float32(value) * a, b, v)
    elif v.dtype == np.float64:
        v[...] = fma64(value * a, b, v)
    else:
        v += value * a * b


def lerp_(start: np.ndarray, end: np.ndarray, weight: float) -> None:
    """start += weight * (end - start) in place, computed from the nearer end as PyTorch's lerp
    kernel does (so that weights 0 and 1 give the ends exactly); on float32 each branch is one
    fused multiply-add."""
    if start.dtype == np.float32:
        w = np.float32(weight)
        start[...] = (fma(w, end - start, start) if abs(weight) < 0.5
                      else fma(-(end - start), np.float32(1) - w, end))
    elif start.dtype == np.float64:
        start[...] = (fma64(weight, end - start, start) if abs(weight) < 0.5
                      else fma64(-(end - start), 1 - weight, end))
    elif abs(weight) < 0.5:
        start += weight * (end - start)
    else:
        start[...] = end - (end - start) * (1 - weight)


def log_from_double(x: np.ndarray) -> np.ndarray:
    """log(x) in x's dtype, computed in double and rounded once, as the C library's log of a
    float promoted to double."""
    return np.log(x.astype(np.float64)).astype(x.dtype)


def log1p_from_double(x: np.ndarray) -> np.ndarray:
    """log1p(x) in x's dtype, computed in double and rounded once."""
    return np.log1p(x.astype(np.float64)).astype(x.dtype)


def default_init_bounds(fan_in: int) -> tuple[float, float]:
    """The bounds of PyTorch's default initialisation of Linear and Conv weights and biases:
    kaiming_uniform_(a=sqrt(5)) for the weight, uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)) for
    the bias, in PyTorch's steps (they can differ in the last bit from 1/sqrt(fan_in))."""
    if fan_in <= 0:
        return 0, 0
    gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))  # calculate_gain("leaky_relu", sqrt(5))
    return math.sqrt(3.0) * (gain / math.sqrt(fan_in)), 1 / math.sqrt(fan_in)
