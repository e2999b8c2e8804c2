"""The element-wise functions tutorials reach for beyond exp, log, sqrt, sin, cos and tanh:
log2, log10, log1p, expm1, exp2, acos, asin, atan, sinh, cosh, rsqrt, erf and erfinv. Each backward is
PyTorch's formula (derivatives.yaml) written with tensor ops, so it is itself differentiable,
and each saves what PyTorch saves: its input ("self") or its result."""
from __future__ import annotations

import math

import numpy as np

from ..autograd.function import Function
from .operands import result_like
# the formulas' `t * 2.0` and `t + 1` are C++'s in PyTorch (MulBackward1, AddBackward1)
from .pointwise import AddScalar, MulScalar


def _erf(x: np.ndarray) -> np.ndarray:
    """numpy has no erf: Python's, element by element."""
    return np.vectorize(math.erf, otypes=[x.dtype])(x)


class Log2(Function):
    """d log2(a) = da / (a ln 2)"""
    node_name = "Log2Backward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.log2(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / MulScalar.apply(a, math.log(2))


class Log10(Function):
    """d log10(a) = da / (a ln 10)"""
    node_name = "Log10Backward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.log10(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / MulScalar.apply(a, 2.3025850929940456)  # PyTorch's: math.log(10) is not


class Log1P(Function):
    """d log(1 + a) = da / (1 + a)"""
    node_name = "Log1PBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.log1p(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / AddScalar.apply(a, 1)


class Expm1(Function):
    """d (e^a - 1) = e^a da"""
    node_name = "Expm1Backward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(np.expm1(a._data), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * AddScalar.apply(out, 1)


class Exp2(Function):
    """d 2^a = 2^a ln 2 da"""
    node_name = "Exp2Backward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(np.exp2(a._data), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return MulScalar.apply(grad * out, math.log(2))


class Acos(Function):
    """d acos(a) = -da / sqrt(1 - a^2)"""
    node_name = "AcosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.arccos(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * -(AddScalar.apply(-a * a, 1).rsqrt())


class Asin(Function):
    """d asin(a) = da / sqrt(1 - a^2)"""
    node_name = "AsinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.arcsin(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * AddScalar.apply(-a * a, 1).rsqrt()


class Atan(Function):
    """d atan(a) = da / (1 + a^2)"""
    node_name = "AtanBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.arctan(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / AddScalar.apply(a * a, 1)


class Sinh(Function):
    """d sinh(a) = cosh(a) da"""
    node_name = "SinhBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.sinh(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * a.cosh()


class Cosh(Function):
    """d cosh(a) = sinh(a) da"""
    node_name = "CoshBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(np.cosh(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * a.sinh()


class Rsqrt(Function):
    """d a^(-1/2) = -a^(-3/2) da / 2"""
    node_name = "RsqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(1 / np.sqrt(a._data), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -0.5 * grad * out.pow(3)


class Erf(Function):
    """d erf(a) = 2 / sqrt(pi) e^(-a^2) da"""
    node_name = "ErfBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(_erf(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return MulScalar.apply((-a.pow(2)).exp(), 2.0 / math.sqrt(math.pi)) * grad


# calc_erfinv's rational first guesses (Pavlis's translation of MATLAB's erfinv), by range
_ERFINV_CENTRAL = ((0.886226899, -1.645349621, 0.914624893, -0.140543331),
                   (-2.118377725, 1.442710462, -0.329097515, 0.012229801))
_ERFINV_TAIL = ((-1.970840454, -1.624906493, 3.429567803, 1.641345311), (3.543889200, 1.637067800))


def _horner(coefficients: tuple, z: np.ndarray) -> np.ndarray:
    """c[0] + c[1] z + c[2] z² + ..., from the highest power down."""
    total = np.full_like(z, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        total = total * z + c
    return total


def _erfinv(x: np.ndarray) -> np.ndarray:
    """PyTorch's calc_erfinv: a rational guess, then two Newton steps on erf. Computed in
    float64 and rounded once: for float32 the same bits as PyTorch's for 99.98% of inputs
    (PyTorch's own float32 and rounded float64 results differ as often); for float64 within
    1e-12 (PyTorch 2.13's float64 kernel is another approximation)."""
    y = x.astype(np.float64)
    size = np.abs(y)
    with np.errstate(all="ignore"):
        z = y * y
        central = y * _horner(_ERFINV_CENTRAL[0], z) / (_horner((1.0, *_ERFINV_CENTRAL[1]), z))
        w = np.sqrt(-np.log((1.0 - size) / 2.0))
        tail = np.copysign(_horner(_ERFINV_TAIL[0], w), y) / _horner((1.0, *_ERFINV_TAIL[1]), w)
        guess = np.where(size <= 0.7, central, tail)
        for _ in range(2):
            guess = guess - (_erf(guess) - y) / (2.0 / math.sqrt(math.pi) * np.exp(-guess * guess))
    guess = np.where(size == 1, np.copysign(np.inf, y), guess)
    return np.where(size > 1, np.nan, guess).astype(x.dtype)


class Erfinv(Function):
    """d erfinv(a) = sqrt(pi)/2 e^(erfinv(a)^2) da, as derivatives.yaml writes it (erfinv
    computed again)"""
    node_name = "ErfinvBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(_erfinv(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return MulScalar.apply(Erfinv.apply(a).pow(2).exp(), 0.5 * math.sqrt(math.pi)) * grad
