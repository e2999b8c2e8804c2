"""A tensor and a number inside PyTorch's C++ backward formulas, where the number stays a
number (a Scalar): AddBackward1, MulBackward1, DivBackward1, where Python's `x + 1`, `x * 2`,
`x / 2` record AddBackward0, MulBackward0, DivBackward0. Their own backwards are the same ops
again, as PyTorch's are."""
from __future__ import annotations

from ..autograd.function import Function
from .operands import result_like


class AddScalar(Function):
    """a tensor plus a number inside PyTorch's C++ code: grad_fn AddBackward1 (Python's
    `x + 1` is AddBackward0)."""
    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx, a, other):
        return result_like(a._data + other, a)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class SubScalar(Function):
    """a tensor minus a number inside PyTorch's C++ code: grad_fn SubBackward1."""
    node_name = "SubBackward1"

    @staticmethod
    def forward(ctx, a, other):
        return result_like(a._data - other, a)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class MulScalar(Function):
    """a tensor times a number where PyTorch's own C++ code multiplies (inside cross_entropy's
    label smoothing, say): grad_fn MulBackward1. Python's `x * 2` is MulBackward0."""
    node_name = "MulBackward1"
    saved_attributes = ("other",)

    @staticmethod
    def forward(ctx, a, other):
        ctx.other = other
        return result_like(a._data * other, a)

    @staticmethod
    def backward(ctx, grad):
        return MulScalar.apply(grad, ctx.other), None


class DivScalar(Function):
    """a tensor divided by a number inside PyTorch's C++ code: grad_fn DivBackward1."""
    node_name = "DivBackward1"
    saved_attributes = ("other",)

    @staticmethod
    def forward(ctx, a, other):
        ctx.other = other
        return result_like(a._data / other, a)

    @staticmethod
    def backward(ctx, grad):
        return DivScalar.apply(grad, ctx.other), None
