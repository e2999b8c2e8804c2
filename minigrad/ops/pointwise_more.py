"""Element-wise operations, continued (issue 31's missing names): lerp, addcmul, addcdiv, frac,
atan2, nan_to_num. Each computes its values as PyTorch's CPU kernel writes them, and its backward as
PyTorch's derivatives.yaml does (with tensor operations, so a gradient of a gradient works)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .operands import as_tensor_pair, check_broadcast, result_like, type_name
from .pointwise import Div, MulScalar, Sub
from .selection import where


def _word(t: Tensor) -> str:
    """PyTorch's dtype word in these kernels' messages: float, double, long int..."""
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "bool": "bool"}.get(t.dtype.name, t.dtype.name)


def _number(value: Any, like: Tensor) -> Tensor:
    """A number as the first operand of an operation in PyTorch's C++ (`1 - weight`,
    `value / tensor2`: empty_like(t).fill_(value), then sub_ or div_ in place): a tensor of
    `like`'s dtype without a grad_fn, so the node is SubBackward0 or DivBackward0 with no edge
    for it, and the division a true one (not a reciprocal times the number)."""
    return tensor_of(np.asarray(value, dtype=like._data.dtype))


class Lerp(Function):
    """start + weight (end - start), for a number weight: d start = (1 - weight) g,
    d end = weight g"""
    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.weight = weight
        s, e = start._data, end._data
        w = s.dtype.type(weight)
        # PyTorch's formula: from the nearer end, so that weight 1 gives `end` exactly
        return result_like(s + w * (e - s) if abs(w) < 0.5 else e - (e - s) * (1 - w), start)

    @staticmethod
    def backward(ctx, grad):
        return MulScalar.apply(grad, 1 - ctx.weight), MulScalar.apply(grad, ctx.weight), None


class LerpTensor(Function):
    """lerp with a tensor of weights: also d weight = (end - start) g"""
    node_name = "LerpBackward1"

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.save_for_backward(start, end, weight)
        s, e, w = start._data, end._data, weight._data
        return result_like(np.where(np.abs(w) < 0.5, s + w * (e - s), e - (e - s) * (1 - w)),
                           start)

    @staticmethod
    def backward(ctx, grad):
        start, end, weight = ctx.saved_tensors
        return grad * Sub.apply(_number(1, weight), weight), grad * weight, grad * (end - start)


def lerp(start: Tensor, end: Any, weight: Any) -> Tensor:
    if not isinstance(end, Tensor):
        raise TypeError(f"lerp(): argument 'end' (position 1) must be Tensor, not "
                        f"{type_name(end)}")
    if end.dtype is not start.dtype:
        raise RuntimeError(f"expected dtype {_word(start)} for `end` but got dtype {_word(end)}")
    check_broadcast(start.shape, end.shape)
    if not start.dtype.is_floating_point:
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{start.dtype.tensor_type.replace('Tensor', '')}'")
    if isinstance(weight, Tensor):
        if weight.dtype is not start.dtype:
            raise RuntimeError(f"expected dtype {_word(start)} for `weight` but got dtype "
                               f"{_word(weight)}")
        check_broadcast(np.broadcast_shapes(start.shape, end.shape), weight.shape)
        return LerpTensor.apply(start, end, weight)
    return Lerp.apply(start, end, weight)


class Addcmul(Function):
    """a + value * t1 * t2: d a = g, d t1 = g (t2 value), d t2 = g (t1 value)"""
    node_name = "AddcmulBackward0"

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        ctx.save_for_backward(t1, t2)
        ctx.value = value
        dt = a._data.dtype
        return result_like(a._data + dt.type(value) * t1._data * t2._data, a)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        return (grad, grad * _times(t2, ctx.value) if ctx.needs_input_grad[1] else None,
                grad * _times(t1, ctx.value) if ctx.needs_input_grad[2] else None, None)


def _times(t: Tensor, value: Any) -> Tensor:
    """`t * value` as PyTorch's backward computes it, promoted: an integer tensor times a float
    is a float tensor, a bool tensor times an integer an int64 one (both were kept in t's dtype,
    truncated)"""
    return MulScalar.apply(t, value) if t.dtype.is_floating_point else t * value


def addcmul(a: Tensor, t1: Tensor, t2: Tensor, value: Any = 1) -> Tensor:
    t1, t2 = as_tensor_pair(t1, t2)
    a, t1 = as_tensor_pair(a, t1)
    a, t2 = as_tensor_pair(a, t2)
    return Addcmul.apply(a, t1, t2, value)


class Addcdiv(Function):
    """a + value * t1 / t2: d a = g, d t1 = g value / t2, d t2 = -g value t1 / t2^2"""
    node_name = "AddcdivBackward0"

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        ctx.save_for_backward(t1, t2)
        ctx.value = value
        dt = a._data.dtype
        with np.errstate(divide="ignore", invalid="ignore"):
            return result_like(a._data + dt.type(value) * t1._data / t2._data, a)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        return (grad, grad * Div.apply(_number(ctx.value, t2), t2)
                if ctx.needs_input_grad[1] else None,
                -grad * (MulScalar.apply(t1, ctx.value) / (t2 * t2))
                if ctx.needs_input_grad[2] else None, None)


INTEGER_ADDCDIV = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
    "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
    "inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
    "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all "
    "dtypes.")


def addcdiv(a: Tensor, t1: Tensor, t2: Tensor, value: Any = 1) -> Tensor:
    if not (t1.dtype.is_floating_point or t2.dtype.is_floating_point) and t1.dtype.name != "bool":
        raise RuntimeError(INTEGER_ADDCDIV)
    t1, t2 = as_tensor_pair(t1, t2)
    a, t1 = as_tensor_pair(a, t1)
    a, t2 = as_tensor_pair(a, t2)
    return Addcdiv.apply(a, t1, t2, value)


class Frac(Function):
    """a - trunc(a), the fractional part with a's sign: d = g"""
    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, a):
        return result_like(a._data - np.trunc(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        return grad


def frac(a: Tensor) -> Tensor:
    if not a.dtype.is_floating_point:
        raise NotImplementedError(f"\"frac_cpu\" not implemented for "
                                  f"'{a.dtype.tensor_type.replace('Tensor', '')}'")
    return Frac.apply(a)


class Atan2(Function):
    """the angle of the point (b, a): d a = g b / (a² + b²), d b = -g a / (a² + b²); at the
    origin, where the angle jumps, PyTorch sends 0 to both"""
    node_name = "Atan2Backward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result_like(np.arctan2(a._data, b._data), a)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        squares = a * a + b * b
        recip = squares.reciprocal().masked_fill(squares == 0, 0)
        return grad * b * recip, grad * -a * recip


def atan2(a: Tensor, b: Any, name: str = "atan2", position: int = 1) -> Tensor:
    """`position`: where `other` stands, as PyTorch's error counts it (2 in torch.atan2(a, b))"""
    if not isinstance(b, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not "
                        f"{type_name(b)}")
    a, b = as_tensor_pair(a, b)
    if a._data.dtype.kind != "f":  # promoted together first, then made floats
        a, b = a._float_if_int(), b._float_if_int()
    return Atan2.apply(a, b)


class Hypot(Function):
    """sqrt(a² + b²) without overflow: d a = g a / result, d b = g b / result"""
    node_name = "HypotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        out = result_like(np.hypot(a._data, b._data), a)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        grad_b = grad * b / out  # made first, as PyTorch's HypotBackward0 does
        return grad * a / out, grad_b


def hypot(a: Tensor, b: Any) -> Tensor:
    if not isinstance(b, Tensor):
        raise TypeError(f"hypot(): argument 'other' (position 1) must be Tensor, not "
                        f"{type_name(b)}")
    a, b = as_tensor_pair(a, b)
    if a._data.dtype.kind != "f":
        raise NotImplementedError(f'"hypot_cpu" not implemented for \'{a.dtype.scalar_name}\'')
    return Hypot.apply(a, b)


class NanToNum(Function):
    """nan, inf and -inf replaced by numbers: d = g where a was finite, else 0"""
    node_name = "NanToNumBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, nan, posinf, neginf):
        ctx.save_for_backward(a)
        return result_like(np.nan_to_num(a._data, nan=nan, posinf=posinf, neginf=neginf), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * tensor_of(np.isfinite(a._data)), None, None, None


def nan_to_num(a: Tensor, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Tensor:
    if not a.dtype.is_floating_point:  # nothing to replace: PyTorch returns a copy
        return a.clone()
    return NanToNum.apply(a, nan, posinf, neginf)


class Xlogy(Function):
    """a·log(b), 0 where a is 0 (kl_div's t·log t): d a = g·log(b) (0 where a is 0 and b <= 0),
    d b = g·a / b"""
    node_name = "XlogyBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        x, y = a._data, b._data
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(np.isnan(y), np.nan, np.where(x == 0, 0, x * np.log(y)))
        return result_like(out, a)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_a = grad_b = None
        if ctx.needs_input_grad[1]:  # made first, as PyTorch's XlogyBackward0 makes them
            grad_b = grad * a / b
        if ctx.needs_input_grad[0]:
            flat = tensor_of((a._data == 0) & (b._data <= 0))
            grad_a = Xlogy.apply(grad, b).masked_fill(flat, 0)
        return grad_a, grad_b
