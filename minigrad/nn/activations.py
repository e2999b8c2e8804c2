"""The activations tutorials use beside ReLU, Tanh and Sigmoid: GELU, ELU, Softplus, and the
clipping Hardtanh and ReLU6, each a Function with PyTorch's grad_fn name, its functional form
and its module."""
from __future__ import annotations

import math

import numpy as np

from .. import _inplace
from ..autograd.function import Function
from ..ops.operands import result_like
from ..ops.selection import where
from ..ops.transcendental import _erf
from ..tensor import Tensor
from .module import Module

SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


class Gelu(Function):
    """x·Φ(x), Φ the standard normal's distribution function (or its tanh approximation):
    d = Φ(x) + x·φ(x)"""
    node_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, x, approximate):
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        a = x._data
        if approximate == "tanh":
            return result_like(0.5 * a * (1 + np.tanh(SQRT_2_OVER_PI * (a + 0.044715 * a**3))), x)
        return result_like(a * 0.5 * (1 + _erf(a * np.asarray(1 / math.sqrt(2), a.dtype))), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if ctx.approximate == "tanh":
            inner = SQRT_2_OVER_PI * (x + 0.044715 * x.pow(3))
            t = inner.tanh()
            d_inner = SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
            return grad * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * d_inner), None
        cdf = 0.5 * (1 + (x * (1 / math.sqrt(2))).erf())
        pdf = (-0.5 * x * x).exp() * (1 / math.sqrt(2 * math.pi))
        return grad * (cdf + x * pdf), None


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate)


class Elu(Function):
    """x for x > 0, alpha·(e^x - 1) otherwise: d = 1, or alpha·e^x"""
    node_name = "EluBackward0"

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        a = x._data
        return result_like(np.where(a > 0, a, alpha * np.expm1(np.minimum(0, a))), x)  # -0.0 kept

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where(x > 0, grad, grad * ctx.alpha * x.exp()), None


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        raise NotImplementedError("minigrad is a subset of PyTorch: elu(inplace=True) is not "
                                  "implemented; use inplace=False")
    return Elu.apply(input, alpha)


class SoftplusFunction(Function):
    """log(1 + e^(beta·x)) / beta, x itself above the threshold: d = sigmoid(beta·x)"""
    node_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx, x, beta, threshold):
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        a = x._data
        return result_like(np.where(a * beta > threshold, a, np.log1p(np.exp(a * beta)) / beta), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        linear = x * ctx.beta > ctx.threshold
        return where(linear, grad, grad * (x * ctx.beta).sigmoid()), None, None


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return SoftplusFunction.apply(input, beta, threshold)


class GELU(Module):
    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return gelu(input, self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class ELU(Module):
    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input: Tensor) -> Tensor:
        return elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Softplus(Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input: Tensor) -> Tensor:
        return softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class HardtanhFunction(Function):
    """x clipped to [min_val, max_val] (relu6 is [0, 6]): d = g strictly inside, else 0"""
    node_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, x, min_val, max_val):
        ctx.save_for_backward(x)
        ctx.bounds = min_val, max_val
        a = x._data
        low, high = (a.dtype.type(min_val), a.dtype.type(max_val))
        return result_like(np.minimum(high, np.maximum(low, a)), x)  # -0.0 kept, as clamp

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        low, high = ctx.bounds
        return where(Tensor((x._data > low) & (x._data < high)), grad, 0.0), None, None


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:  # PyTorch's hardtanh_: the input clipped in place, recorded as in-place ops are
        return _inplace.inplace(input, lambda t: HardtanhFunction.apply(t, min_val, max_val))
    return HardtanhFunction.apply(input, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


class Hardtanh(Module):
    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if max_val <= min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")

    def forward(self, input: Tensor) -> Tensor:
        return hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return (f"min_val={self.min_val}, max_val={self.max_val}"
                + (", inplace=True" if self.inplace else ""))


class ReLU6(Hardtanh):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""
