"""The activations tutorials use beside ReLU, Tanh and Sigmoid: GELU, SiLU, LogSigmoid, ELU,
Softplus, and the clipping Hardtanh and ReLU6, each a Function with PyTorch's grad_fn name, its
functional form and its module."""
from __future__ import annotations

import math

import numpy as np

from .. import _grad_mode, _inplace
from ..autograd.function import Function
from ..fidelity import vector_math
from ..ops.operands import result_like, zero_gradient
from ..ops.pointwise import AddScalar, MulScalar, SigmoidBackward, Sub
from ..ops.selection import where
from ..ops.transcendental import _erf
from ..tensor import Tensor, tensor_of
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
        return GeluBackward.apply(grad, x, ctx.approximate), None


def _gelu_derivative(x: Tensor, approximate: str) -> Tensor:
    if approximate == "tanh":
        inner = SQRT_2_OVER_PI * (x + 0.044715 * x.pow(3))
        t = inner.tanh()
        d_inner = SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * d_inner
    cdf = 0.5 * (1 + (x * (1 / math.sqrt(2))).erf())
    pdf = (-0.5 * x * x).exp() * (1 / math.sqrt(2 * math.pi))
    return cdf + x * pdf


def _gelu_second_derivative(x: Tensor, approximate: str) -> Tensor:
    """d/dx of _gelu_derivative, on tensors (a third derivative goes through it)"""
    if approximate == "tanh":  # 0.5 x (1 + t), t = tanh(u): (1 - t^2) (u' (1 - x t u') + x/2 u'')
        t = (SQRT_2_OVER_PI * (x + 0.044715 * x.pow(3))).tanh()
        d_inner = SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
        return (1 - t * t) * (d_inner * (1 - x * t * d_inner) + 0.5 * x * (
            SQRT_2_OVER_PI * 6 * 0.044715 * x))
    pdf = (-0.5 * x * x).exp() * (1 / math.sqrt(2 * math.pi))
    return 2 * pdf - x * x * pdf


class GeluBackward(Function):
    """gelu's backward as an op of its own, as PyTorch's gelu_backward: differentiated again
    (create_graph), its gradient is derivatives.yaml's, gg * grad * gelu''(x) in one product, so
    that the zeros of a hessian have PyTorch's signs"""
    node_name = "GeluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, approximate):
        ctx.save_for_backward(grad, x)
        ctx.approximate = approximate
        return grad * _gelu_derivative(x, approximate)  # (forward records nothing)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        return (GeluBackward.apply(gg, x, ctx.approximate),
                gg * grad * _gelu_second_derivative(x, ctx.approximate), None)


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
        return EluBackward.apply(grad, x, ctx.alpha), None


class EluBackward(Function):
    """elu's backward as an op of its own, as PyTorch's elu_backward: differentiated again, its
    gradient for x is derivatives.yaml's, gg * grad * alpha * e^x where x <= 0, else 0 (times)"""
    node_name = "EluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, alpha):
        ctx.save_for_backward(grad, x)
        ctx.alpha = alpha
        return where(x <= 0, grad * alpha * x.exp(), grad)  # as PyTorch's: grad at NaN

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        alpha = ctx.alpha
        at_most_0 = tensor_of((x._data <= 0).astype(x._data.dtype))  # a product, not a where:
        return (EluBackward.apply(gg, x, alpha),  # above 0, PyTorch's zeros have gg's signs
                gg * grad * alpha * x.exp() * at_most_0, None)


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
        return SoftplusBackward.apply(grad, x, ctx.beta, ctx.threshold), None, None


class SoftplusBackward(Function):
    """softplus's backward as an op of its own, as PyTorch's softplus_backward: differentiated
    again, its gradient for x is derivatives.yaml's, sigmoid_backward(gg * grad, s) * beta below
    the threshold (s = sigmoid(beta x)), else 0"""
    node_name = "SoftplusBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, beta, threshold):
        ctx.save_for_backward(grad, x)
        ctx.beta, ctx.threshold = beta, threshold
        return where(x * beta > threshold, grad, grad * (x * beta).sigmoid())

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        beta, threshold = ctx.beta, ctx.threshold
        scaled = MulScalar.apply(x, beta)
        below = tensor_of((scaled._data < threshold).astype(x._data.dtype))
        d_x = MulScalar.apply(SigmoidBackward.apply(gg * grad, scaled.sigmoid()) * below, beta)
        return SoftplusBackward.apply(gg, x, beta, threshold), d_x, None, None


def _refuse_integers(t: Tensor, kernel: str) -> None:
    """PyTorch's error for a kernel it has for floats only (minigrad computed in the integers,
    truncated: silu of ints gave ints)"""
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.scalar_name}\'')


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    _refuse_integers(input, "softplus_cpu")
    return SoftplusFunction.apply(input, beta, threshold)


class SiluFunction(Function):
    """x·sigmoid(x): d = s (1 + x (1 - s)), s = sigmoid(x)"""
    node_name = "SiluBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._data
        return result_like(a / (1 + vector_math.exp_like_torch(-a)), x)  # PyTorch's kernel

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if not _grad_mode.state.enabled:  # PyTorch's silu_backward kernel
            return tensor_of(SiluFunction._backward_on_arrays(ctx, grad._data))
        # PyTorch's infinitely_differentiable_silu_backward, on tensors; its `1.0 + t` and
        # `1.0 - s` are C++'s (AddBackward1, and a SubBackward0 from a tensor of ones)
        s = x.sigmoid()
        return grad * s * AddScalar.apply(x * Sub.apply(tensor_of(np.ones_like(s._data)), s), 1.0)

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (x,) = ctx.saved_arrays
        s = 1 / (1 + vector_math.exp_like_torch(-x))
        return np.asarray(grad * s * (1 + x * (1 - s)), x.dtype)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        raise NotImplementedError("minigrad is a subset of PyTorch: silu(inplace=True) is not "
                                  "implemented; use inplace=False")
    _refuse_integers(input, "silu_cpu")
    return SiluFunction.apply(input)


class LogSigmoidFunction(Function):
    """log(sigmoid(x)) = min(x, 0) - log1p(e^-|x|): d = sigmoid(-x)"""
    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._data
        ctx.buffer = vector_math.exp_like_torch(-np.abs(a))  # PyTorch's kernel keeps e^-|x|
        return result_like(np.minimum(a, 0) - np.log1p(ctx.buffer), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LogSigmoidBackward.apply(grad, x, ctx.buffer)

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (x,) = ctx.saved_arrays
        return _log_sigmoid_backward(grad, x, ctx.buffer)


def _log_sigmoid_backward(grad: np.ndarray, x: np.ndarray, z: np.ndarray) -> np.ndarray:
    """PyTorch's kernel: (max_deriv - sign * z / (1 + z)) * grad, z = e^-|x|"""
    negative = x < 0
    return np.asarray((negative - np.where(negative, 1, -1) * (z / (1 + z))) * grad, x.dtype)


class LogSigmoidBackward(Function):
    """logsigmoid's backward as an op of its own, as PyTorch's log_sigmoid_backward: again
    differentiated, derivatives.yaml's gradients (gg * grad * (s - 1) * s for x, s = sigmoid(x))"""
    node_name = "LogSigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, buffer):
        ctx.save_for_backward(grad, x)
        ctx.buffer = buffer
        return result_like(_log_sigmoid_backward(grad._data, x._data, buffer), x)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        s = x.sigmoid()
        return LogSigmoidBackward.apply(gg, x, ctx.buffer), gg * grad * (s - 1) * s, None


def logsigmoid(input: Tensor) -> Tensor:
    _refuse_integers(input, "log_sigmoid_cpu")
    return LogSigmoidFunction.apply(input)


class GELU(Module):
    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return gelu(input, self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return silu(input, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return logsigmoid(input)


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
        return HardtanhBackward.apply(grad, x, ctx.bounds), None, None


class HardtanhBackward(Function):
    """hardtanh's backward as an op of its own, as PyTorch's hardtanh_backward: g strictly inside
    the bounds, else 0; differentiated again, the same for gg, and zeros for x
    (derivatives.yaml), so that the zeros of a hessian have PyTorch's signs"""
    node_name = "HardtanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, bounds):
        ctx.save_for_backward(x)
        ctx.bounds = bounds
        low, high = bounds
        a = x._data  # PyTorch zeroes where x <= low or x >= high: at NaN the gradient passes
        return where(tensor_of(~((a <= low) | (a >= high))), grad, 0.0)

    @staticmethod
    def backward(ctx, gg):
        (x,) = ctx.saved_tensors
        return HardtanhBackward.apply(gg, x, ctx.bounds), zero_gradient(gg), None


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
