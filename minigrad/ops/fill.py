"""Overwriting every value: fill_, zero_, copy_. The old values get a zero gradient (they no
longer matter); a tensor that supplied the new values gets the gradient of every place it
filled. Recording them, rather than dropping history, is what keeps `y.fill_(7)` from
sending y's old gradient path a gradient it never earned."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype
from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .operands import check_broadcast, zero_gradient


class Fill(Function):
    """fill_(number): d = 0 for the old values"""
    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, a, value):
        value = value._data if isinstance(value, Tensor) else value
        return tensor_of(np.full(a.shape, value, dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad), None


class FillTensor(Fill):
    """fill_(0-d tensor): d = 0 for the old values, the sum of all for the value"""
    node_name = "FillBackward3"

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad), grad.sum()


class Zero(Fill):
    """zero_(): d = 0"""
    node_name = "ZeroBackward0"


class Copy(Function):
    """copy_(src): d = 0 for the old values; src gets the gradient, summed back to its shape"""
    node_name = "CopyBackwards"
    node_qualname = "torch::autograd::CopyBackwards"

    @staticmethod
    def forward(ctx, a, src):
        try:
            values = np.broadcast_to(src._data.astype(a._data.dtype), a.shape)
        except ValueError:
            check_broadcast(a.shape, src.shape)
            raise RuntimeError(f"output with shape {list(a.shape)} doesn't match the broadcast "
                               f"shape {list(np.broadcast_shapes(a.shape, src.shape))}") from None
        return tensor_of(values.copy())

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad), grad


def fill(a: Tensor, value: Any) -> Tensor:
    if not isinstance(value, Tensor):
        return Fill.apply(a, _dtype.fitting(value, a.dtype))
    if value.ndim:
        raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.ndim} dimensions.")
    return FillTensor.apply(a, value)  # PyTorch writes a tensor's value unchecked (wraps)
