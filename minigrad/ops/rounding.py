"""Division that rounds: `a // b` (floor_divide), `a % b` (remainder) and
`torch.div(a, b, rounding_mode="floor" | "trunc")`. Python's rules: // rounds towards minus
infinity and % takes the sign of the divisor; integers stay integers.

Their gradients are PyTorch's: floor_divide has none (its grad_fn is `NotImplemented`, and
backward through it fails), the rounded quotient is flat almost everywhere so div with a
rounding mode sends zeros, and a % b = a - floor(a / b) * b sends g to a and
-g * floor(a / b) to b. Also floor, ceil and trunc (flat: d = 0) and fmod, C's remainder,
which takes the sign of the dividend."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor
from .pointwise import Div
from .operands import as_tensor_pair
from .operands import refuse_bool, result_like, zero_gradient

ROUNDING_MODES = (None, "trunc", "floor")


def _check_integer_divisor(b: Tensor) -> None:
    """PyTorch's error for an integer division by zero (numpy gives 0 and warns)."""
    if b._data.dtype.kind != "f" and not b._data.all():
        raise RuntimeError("ZeroDivisionError")


class FloorDivide(Function):
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        _check_integer_divisor(b)
        return result_like(np.floor_divide(a._data, b._data), a)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class Remainder(Function):
    """d(a % b) = da - floor(a / b) db"""
    node_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(*((a, b) if ctx.needs_input_grad[1] else (None, None)))
        if a._data.dtype.kind != "f":
            _check_integer_divisor(b)
            return result_like(np.remainder(a._data, b._data), a)
        with np.errstate(invalid="ignore"):  # PyTorch's: C's fmod, moved to the divisor's side
            mod = np.fmod(a._data, b._data)  # (numpy's remainder gives 0.0 for -2.0 % 2)
            moved = (mod != 0) & ((b._data < 0) != (mod < 0))
        return result_like(np.where(moved, mod + b._data, mod), a)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        if not ctx.needs_input_grad[1]:
            return grad, None
        # floor(a / b) in the result's dtype, as PyTorch's promoted operands: an integer or
        # bool dividend floored in its own dtype gave int64's bounds where b is 0
        quotient = FloorDivide.apply(a.to(grad.dtype), b.to(grad.dtype)).detach()
        return grad if ctx.needs_input_grad[0] else None, -grad * quotient


class TrueDivMode(Div):
    """torch.div(a, b, rounding_mode=None): PyTorch records this overload under its own name"""
    node_name = "DivBackward2"


class RoundedDiv(Function):
    """a / b rounded: its derivative is 0 wherever it is defined"""
    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, mode):
        _check_integer_divisor(b)
        if mode == "floor":
            return result_like(np.floor_divide(a._data, b._data), a)
        quotient = a._data / b._data if a._data.dtype.kind == "f" else np.fix(a._data / b._data)
        return result_like(np.trunc(quotient).astype(a._data.dtype), a)

    @staticmethod
    def backward(ctx, grad):
        zeros = grad - grad
        return zeros, zeros, None


def floor_divide(a, b):  # noqa: ANN001, ANN201 - any pair an operator takes
    return FloorDivide.apply(*as_tensor_pair(a, b))


class RemainderTensor(Remainder):
    """remainder by a tensor: PyTorch records this overload as RemainderBackward1"""
    node_name = "RemainderBackward1"


class RemainderOfNumber(Remainder):
    """a number % a tensor: PyTorch's remainder(Scalar, Tensor) has no derivative (its grad_fn
    is `NotImplemented`, and backward through it fails)"""
    node_name = "NotImplemented"

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


def remainder(a, b):  # noqa: ANN001, ANN201
    if not isinstance(a, Tensor):
        return RemainderOfNumber.apply(*as_tensor_pair(a, b))
    return (RemainderTensor if isinstance(b, Tensor) else Remainder).apply(*as_tensor_pair(a, b))


def div(a, b, rounding_mode=None):  # noqa: ANN001, ANN201
    """torch.div(a, b, rounding_mode=...): true division (ints become floats) for None, else
    rounded. (Without the keyword at all, a.div(b) is the plain DivBackward0 division.)"""
    if rounding_mode not in ROUNDING_MODES:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    if rounding_mode is None:
        a, b = as_tensor_pair(a, b)
        if a._data.dtype.kind != "f":  # promoted together first, then made floats
            a, b = a._float_if_int(), b._float_if_int()
        return TrueDivMode.apply(a, b)
    return RoundedDiv.apply(*as_tensor_pair(a, b), rounding_mode)


class Round(Function):
    """round to the nearest integer, halves to even: flat almost everywhere, so d = 0"""
    node_name = "RoundBackward0"

    @staticmethod
    def forward(ctx, a, decimals=0):
        refuse_bool(a, "round_cpu" if decimals else "round_vml_cpu")
        x = a._data
        if decimals and x.dtype.kind == "f":  # PyTorch scales by 10**|decimals| in x's dtype
            scale = x.dtype.type(10.0 ** abs(decimals))
            out = np.rint(x * scale) / scale if decimals > 0 else np.rint(x / scale) * scale
        else:
            out = np.rint(x) if x.dtype.kind == "f" else x.copy()
        return result_like(out, a)

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad), None


class RoundDecimals(Round):
    node_name = "RoundBackward1"


def round_(a, decimals=0):  # noqa: ANN001, ANN201
    return (RoundDecimals if decimals else Round).apply(a, decimals)


class Floor(Function):
    """round down: flat almost everywhere, so d = 0"""
    node_name = "FloorBackward0"

    @staticmethod
    def forward(ctx, a):
        refuse_bool(a, "floor_vml_cpu")
        return result_like(np.floor(a._data) if a._data.dtype.kind == "f" else a._data.copy(), a)

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad)


class Ceil(Floor):
    node_name = "CeilBackward0"

    @staticmethod
    def forward(ctx, a):
        refuse_bool(a, "ceil_vml_cpu")
        return result_like(np.ceil(a._data) if a._data.dtype.kind == "f" else a._data.copy(), a)


class Trunc(Floor):
    node_name = "TruncBackward0"

    @staticmethod
    def forward(ctx, a):
        refuse_bool(a, "trunc_vml_cpu")
        return result_like(np.trunc(a._data) if a._data.dtype.kind == "f" else a._data.copy(), a)


class Fmod(Function):
    """a - trunc(a / b) * b, the sign of a (C's fmod): d = da, and -trunc(a / b) db"""
    node_name = "FmodBackward1"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(*((a, b) if ctx.needs_input_grad[1] else (None, None)))
        if a._data.dtype.kind in "iu" and (b._data == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return result_like(np.fmod(a._data, b._data), a)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_b = -grad * (a / b).trunc() if ctx.needs_input_grad[1] else None
        return grad, grad_b


class FmodNumber(Fmod):
    """fmod by a number: d = da"""
    node_name = "FmodBackward0"


def fmod(a, b):  # noqa: ANN001, ANN201
    return (Fmod if isinstance(b, Tensor) else FmodNumber).apply(*as_tensor_pair(a, b))
