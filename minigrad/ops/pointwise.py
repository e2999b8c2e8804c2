"""Element-wise operations. Each backward is written with tensor operations, so that with
`create_graph=True` the backward pass is itself recorded (second derivatives). Gradients may
come out broadcast; the engine sums them back to each input's shape."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _grad_mode
from ..autograd.function import Function, FunctionCtx
from ..autograd.numpy_quiet import _QUIET, _numpy_errors
from ..fidelity import vector_math
from ..fidelity.formulas import add_scaled
from ..tensor import Tensor, tensor_of
from .operands import BOOL_SUBTRACTION, as_tensor_pair, refuse_bool, result_like, zero_gradient
from .scalars import AddScalar, DivScalar, MulScalar, SubScalar  # noqa: F401 - (re-exported)
from .selection import Clamp, Relu, Sgn, sign, where  # noqa: F401 - (re-exported)


def check_alpha(a: Any, b: Any, alpha: Any) -> None:
    """PyTorch's alpha_check for add and sub, against the operands' promoted dtype (`a` is
    the tensor)."""
    if type(alpha) is int or (type(alpha) is float and a._data.dtype.kind == "f"):
        return  # (the commonest: nothing to refuse, no promotion to work out)
    from .._dtype import result_type

    dtype = result_type(a, b)
    if isinstance(alpha, (bool, np.bool_)) and dtype.name != "bool":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if not dtype.is_floating_point and not isinstance(alpha, (int, np.integer, np.bool_)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(alpha, (complex, np.complexfloating)):  # (minigrad has no complex dtype)
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex "
                           "number.")


def plus_scaled(a: np.ndarray, b: np.ndarray, alpha: Any) -> np.ndarray:
    """a + alpha * b as PyTorch's CPU kernel computes it: in float32 and float64 one fused
    multiply-add, alpha * b + a rounded once, alpha in the operands' dtype."""
    dtype = a.dtype
    if dtype != b.dtype or dtype not in (np.float32, np.float64) or type(alpha) is complex:
        return a + alpha * b
    a, b = np.broadcast_arrays(a, b)
    scale = dtype.type(alpha)
    fused = np.asarray(add_scaled(a, b, scale), dtype)
    # a zero's sign: fma64 gives +0.0 for -0.0 + -0.0; where a multiply then an add also give
    # a zero, theirs is the exact sum's (one that cancels rounds to +0.0 either way)
    plain = scale * b + a
    return np.where((fused == 0) & (plain == 0), plain, fused)


class Add(Function):
    """d(a+b) = da + db"""
    node_name = "AddBackward0"
    saved_attributes = ("alpha",)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return result_like(a._data + b._data if alpha == 1 else plus_scaled(a._data, b._data,
                                                                             alpha), a)

    @staticmethod
    def backward(ctx, grad):
        return grad, (grad if ctx.alpha == 1 else grad * ctx.alpha), None

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        if ctx.alpha == 1:
            return grad, grad, None
        if type(ctx.alpha) not in (float, int, bool):  # (as_tensor_pair promotes by its type)
            return Add.backward(ctx, tensor_of(np.asarray(grad)))
        return grad, np.asarray(grad * np.asarray(ctx.alpha, grad.dtype), grad.dtype), None


class Sub(Function):
    """d(a-b) = da - db"""
    node_name = "SubBackward0"
    saved_attributes = ("alpha",)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return result_like(a._data - b._data if alpha == 1 else plus_scaled(a._data, b._data,
                                                                             -alpha), a)

    @staticmethod
    def backward(ctx, grad):
        return grad, (-grad if ctx.alpha == 1 else grad * -ctx.alpha), None

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return grad, (-grad if ctx.alpha == 1 else grad * grad.dtype.type(-ctx.alpha)), None


class Rsub(Function):
    """other - a, for a Python number other: d = -da"""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, other):
        return result_like(other - a._data, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad, None

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return -grad, None


class Mul(Function):
    """d(a*b) = b da + a db"""
    node_name = "MulBackward0"
    saved_names = ("other", "self")  # PyTorch's order (saved-tensor hooks see it)

    @staticmethod
    def forward(ctx, a, b):
        a_needs_grad, b_needs_grad = ctx.needs_input_grad  # each keeps the other for backward
        ctx.save_for_backward(b if a_needs_grad else None, a if b_needs_grad else None)
        return result_like(a._data * b._data, a)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        # b's gradient first, as PyTorch makes it: under create_graph, the order nodes are made
        # in is the order a second backward adds their terms in
        grad_b = grad * a if ctx.needs_input_grad[1] else None
        grad_a = grad * b if ctx.needs_input_grad[0] else None
        return grad_a, grad_b


def _mul_on_arrays(ctx, grad):
    """Mul's backward on arrays (BackwardFunction.apply_to_arrays): it sits outside the class,
    which lesson 11 prints as the formula a learner writes. The operands have the gradient's
    dtype (forward promoted them), so `grad * b` is numpy's product as Mul.forward makes it."""
    b, a = ctx.saved_arrays
    if (b is not None and b.dtype != grad.dtype) or (a is not None and a.dtype != grad.dtype):
        return Mul.backward(ctx, tensor_of(np.asarray(grad)))  # (never, by the above)
    return (np.asarray(grad * b, grad.dtype) if ctx.needs_input_grad[0] else None,
            np.asarray(grad * a, grad.dtype) if ctx.needs_input_grad[1] else None)


Mul._backward_on_arrays = staticmethod(_mul_on_arrays)


def mul_unrecorded(a: Tensor, number: float) -> Tensor:
    """`a * number` (or `number * a`) with grad mode off, as `lr * p.grad` is in every update
    under no_grad: nothing to record, and for a floating point tensor nothing to promote or
    broadcast (numpy casts the Python float to the tensor's dtype first, as Mul does with its
    wrapped number). So numpy's product becomes the one result tensor, without Mul's ctx,
    wrapped number and forward (what it earns: benchmarks/tricks.md, row `mul_unrecorded`)."""
    if a._data.dtype.kind != "f":  # promotion (an int or bool tensor becomes float32)
        return Mul.apply(*as_tensor_pair(a, number))
    quiet = _numpy_errors.set(_QUIET)  # numpy quiet, as in every forward
    try:
        out = a._data * number
    finally:
        _numpy_errors.reset(quiet)
    return tensor_of(out if type(out) is np.ndarray else np.asarray(out))  # (0-d: a numpy scalar)


class Div(Function):
    """d(a/b) = da / b - a db / b^2"""
    node_name = "DivBackward0"
    saved_names = ("other", "self")  # PyTorch's order (saved-tensor hooks see it)

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a if ctx.needs_input_grad[1] else None)
        return result_like(a._data / b._data, a)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        # the divisor's gradient made first, as PyTorch's DivBackward0 does: under create_graph
        # its nodes' order decides the order in which a second backward adds up its terms
        grad_b = -grad * (a / b / b) if ctx.needs_input_grad[1] else None  # PyTorch's rounding
        return grad / b if ctx.needs_input_grad[0] else None, grad_b

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        b, a = ctx.saved_tensors
        dtype = grad.dtype
        if b._data.dtype != dtype or (a is not None and a._data.dtype != dtype):
            return Div.backward(ctx, tensor_of(np.asarray(grad)))
        b = b._data
        return (np.asarray(grad / b, dtype) if ctx.needs_input_grad[0] else None,
                np.asarray(-grad * np.asarray(a._data / b / b, dtype), dtype)
                if ctx.needs_input_grad[1] else None)


class Reciprocal(Function):
    """d(1/a) = -da / a^2"""
    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(1 / a._data, a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -grad * (out * out)  # PyTorch's grouping, which decides the rounding


class Pow(Function):
    """d(a^k) = k a^(k-1) da, for a number k"""
    node_name = "PowBackward0"
    saved_attributes = ("exponent",)
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, exponent):
        if a._data.dtype.kind in "iu" and float(exponent) < 0 and float(exponent).is_integer():
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        x = a._data
        if x.dtype.kind == "f" and exponent in (3, -0.5, -2):  # PyTorch's own kernels for these
            # (rsqrt of -0.0 is -inf and of -inf NaN, where pow gives inf and 0)
            return result_like(x * x * x if exponent == 3 else 1 / np.sqrt(x) if exponent == -0.5
                               else 1 / (x * x), a)
        return result_like(x ** exponent, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        k = ctx.exponent
        if k == 0:
            return zero_gradient(grad), None
        # PyTorch's grouping, which decides the rounding; `k * t` is C++'s (MulBackward1)
        return grad * MulScalar.apply(a ** (k - 1), k), None

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (a,) = ctx.saved_tensors
        k = ctx.exponent
        if k == 0:
            return np.zeros(grad.shape, grad.dtype), None
        power = Pow.forward(FunctionCtx(), a, k - 1)  # `a ** (k - 1)`, as backward computes it
        power, k = as_tensor_pair(power, k)  # then `k * power`, k promoted as `*` promotes it
        return grad * (power._data * k._data), None


class PowTensor(Function):
    """d(a^b) = b a^(b-1) da + a^b ln(a) db"""
    node_name = "PowBackward1"
    saved_names = ("exponent", "self", "result")  # PyTorch's order (saved-tensor hooks see it)

    @staticmethod
    def forward(ctx, a, b):
        out = result_like(_power(a._data, b._data), a)
        ctx.save_for_backward(b, a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        b, a, out = ctx.saved_tensors
        grad_a = grad_b = None  # the exponent's made first, as PyTorch's PowBackward1 does
        if ctx.needs_input_grad[1]:  # where a == 0 and b >= 0, PyTorch defines this as 0
            at_zero = tensor_of((a._data == 0) & (b._data >= 0))
            # log of the base in the result's dtype (an integer base's log was float32's)
            grad_b = grad * where(at_zero, 0.0, out * a.to(out.dtype).log())  # PyTorch's grouping
        if ctx.needs_input_grad[0]:  # where b == 0 the result is constant: 0, not 0 * a^-1
            if b._data.dtype == bool:  # PyTorch's formula takes b - 1, which it refuses
                raise RuntimeError(BOOL_SUBTRACTION)
            grad_a = where(tensor_of(b._data == 0), 0.0, grad * (b * a ** SubScalar.apply(b, 1)))
        return grad_a, grad_b


def _power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a ** b; for integers with negative exponents (which numpy refuses) PyTorch's integer
    result: 1 and -1 keep their size, any other base gives 0."""
    negative = b < 0
    if np.result_type(a, b).kind not in "iu" or not negative.any():
        return a ** b
    unit = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
    return np.where(negative, unit, a ** np.where(negative, 0, b))


class RPow(Function):
    """d(k^a) = k^a ln(k) da, for a number k"""
    node_name = "PowBackward2"
    saved_names = ("exponent", "result")

    @staticmethod
    def forward(ctx, a, base):
        out = result_like(_power(np.asarray(base, dtype=a._data.dtype), a._data), a)
        ctx.save_for_backward(a, out)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if ctx.base == 0:  # 0^a is constant where a >= 0: PyTorch's gradient is 0 there
            return grad * where(tensor_of(a._data >= 0), 0.0, out * -math.inf), None
        return grad * MulScalar.apply(out, float(np.log(ctx.base))), None  # PyTorch's grouping


class Neg(Function):
    """d(-a) = -da"""
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        if a._data.dtype == bool:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                               "you are trying to invert a mask, use the `~` or `logical_not()` "
                               "operator instead.")
        return result_like(-a._data, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        return -grad


class Exp(Function):
    """d exp(a) = exp(a) da"""
    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(vector_math.exp_like_torch(a._data), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (out,) = ctx.saved_tensors
        if out._data.dtype != grad.dtype:
            return tensor_of(np.asarray(grad)) * out
        return np.asarray(grad * out._data, grad.dtype)


class Log(Function):
    """d log(a) = da / a"""
    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(vector_math.log_like_torch(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / a  # PyTorch divides (grad * (1 / a) rounds twice, and is MulBackward0)

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (a,) = ctx.saved_tensors
        if a._data.dtype != grad.dtype:
            return tensor_of(np.asarray(grad)) / a
        return np.asarray(grad / a._data, grad.dtype)


class Sqrt(Function):
    """d sqrt(a) = da / (2 sqrt(a))"""
    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(np.sqrt(a._data), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad / MulScalar.apply(out, 2)  # PyTorch's formula (and rounding)


class Sin(Function):
    """d sin(a) = cos(a) da"""
    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(vector_math.sin_like_torch(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * a.cos()


class Cos(Function):
    """d cos(a) = -sin(a) da"""
    node_name = "CosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return result_like(vector_math.cos_like_torch(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * -a.sin()


class Tanh(Function):
    """d tanh(a) = (1 - tanh(a)^2) da"""
    node_name = "TanhBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(vector_math.tanh_like_torch(a._data), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return TanhBackward.apply(grad, out)

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (out,) = ctx.saved_arrays
        return np.asarray(vector_math.tanh_backward_like_torch(grad, out), out.dtype)


class TanhBackward(Function):
    """grad * (1 - out^2), PyTorch's tanh_backward, rounded as PyTorch rounds it (one fused
    multiply-add, fidelity.vector_math); recorded when differentiated again (create_graph)"""
    node_name = "TanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad, out)
        return result_like(vector_math.tanh_backward_like_torch(grad._data, out._data), out)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        return TanhBackward.apply(gg, out), gg * (-2 * out * grad)


class Sigmoid(Function):
    """d s(a) = s(a) (1 - s(a)) da"""
    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        # exp as PyTorch's vectorised kernel rounds it (SLEEF's, bit for bit)
        out = result_like(vector_math.sigmoid_like_torch(a._data), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return SigmoidBackward.apply(grad, out)

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (out,) = ctx.saved_arrays
        if out.dtype != grad.dtype:
            return Sigmoid.backward(ctx, tensor_of(np.asarray(grad)))
        return _sigmoid_backward(grad, out)


def _sigmoid_backward(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    """PyTorch's kernel: grad * (1 - out) * out, in that order (which decides the rounding)"""
    dtype = out.dtype
    return np.asarray(np.asarray(grad * np.asarray(1 - out, dtype), dtype) * out, dtype)


class SigmoidBackward(Function):
    """grad * out * (1 - out), PyTorch's sigmoid_backward, as an op of its own so that a second
    derivative follows PyTorch's formula (derivatives.yaml), the signs of its zeros included"""
    node_name = "SigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad, out)
        if grad._data.dtype != out._data.dtype:  # (a gradient of another dtype: promoted)
            return grad * (1 - out) * out
        return result_like(_sigmoid_backward(grad._data, out._data), out)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        return SigmoidBackward.apply(gg, out), gg * grad * (-2 * out + 1)


class Abs(Function):
    """d |a| = sgn(a) da"""
    node_name = "AbsBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        refuse_bool(a, "abs_cpu")
        ctx.save_for_backward(a)
        return result_like(np.abs(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * Sgn.apply(a)
