"""Element-wise choices: relu, clamp, where and sign. Each gradient passes where a value was
picked and is zero elsewhere (sign picks nothing: its gradient is zero wherever it is defined)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import result_type
from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .operands import (as_tensor_pair, check_broadcast, efficient_zero, result_like,
                       zero_gradient)
from .scalars import DivScalar


# ZERO_SIGNS: PyTorch's max and min keep their first operand where the two are equal, so
# relu(-0.0), clamp(-0.0, min=0) and maximum(-0.0, 0.0) are -0.0 (they print "-0."); numpy's
# keep their second, hence the operands' order here.


class Relu(Function):
    """d relu(a) = [not relu(a) <= 0] da: PyTorch's threshold_backward zeroes where the output is
    at most 0, so at NaN the gradient passes"""
    node_name = "ReluBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result_like(np.maximum(0, a._data), a)  # keeps -0.0, as PyTorch's (ZERO_SIGNS)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, out)

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        (out,) = ctx.saved_arrays
        return _keep_where(_not_at_most_zero(out), grad)


class ThresholdBackward(Function):
    """relu's backward as an op of its own, as in PyTorch: grad where relu(a) > 0, else 0 (not
    grad * 0, which is -0 for a negative grad). Its result depends on relu's output, so under
    create_graph it stays in the graph; d/d(output) is 0."""
    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.keep = tensor_of(_not_at_most_zero(out._data))
        return result_like(_keep_where(ctx.keep._data, grad._data), grad)

    @staticmethod
    def backward(ctx, grad_grad):
        return where(ctx.keep, grad_grad, 0.0), zero_gradient(grad_grad)


def _not_at_most_zero(out: np.ndarray) -> np.ndarray:
    """Where relu's gradient passes: not `out > 0`, which is False at NaN, where PyTorch's
    `out <= 0 ? 0 : grad` passes the gradient."""
    keep = out <= 0
    return np.logical_not(keep, out=keep) if isinstance(keep, np.ndarray) else np.logical_not(keep)


_SAME_SIZE_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _keep_where(keep: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`np.where(keep, values, 0)`, bit for bit (+0 where not kept, -0 kept where it is).

    Why: relu's backward runs this on every layer, and np.where branches on each element,
    which is slow on a mask without pattern, such as relu's: this way relu's backward is
    faster (see benchmarks/tricks.md, row `_keep_where`). How: the values' bits are and-ed
    with a mask of all ones where kept and all zeros (the bits of +0.0) where not."""
    uint = _SAME_SIZE_UINT.get(values.dtype.itemsize)
    if uint is None or values.dtype.kind != "f" or keep.shape != values.shape or not keep.ndim:
        return np.where(keep, values, 0)
    # A bool made an unsigned integer of the values' size is 1 or 0; negated, 1 becomes all
    # ones (-1 in two's complement) and 0 stays 0. (Cast first, then negated in place: numpy's
    # negative with a dtype= casts through a buffer, twice as slow at a relu's sizes.)
    mask = keep.astype(uint)
    np.negative(mask, out=mask)
    return np.bitwise_and(values.view(uint), mask, out=mask).view(values.dtype)


class Clamp(Function):
    """d clamp(a) = da where min <= a <= max, else 0"""
    node_name = "ClampBackward1"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, min=None, max=None):  # PyTorch's names
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(a)
        ctx.bounds = (min, max)
        out = a._data if min is None else np.maximum(min, a._data)  # a on ties (ZERO_SIGNS)
        return result_like(out if max is None else np.minimum(max, out), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        low, high = ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside &= a._data >= low
        if high is not None:
            inside &= a._data <= high
        return where(tensor_of(inside), grad, 0.0), None, None


class ClampTensors(Function):
    """clamp(a, min, max) with tensor bounds (PyTorch's clamp.Tensor): d a = da where
    min <= a <= max; d min = da where a < min (and min < max); d max = da where a > max, and
    wherever max < min, where max is the result (PyTorch's clamp_backward_min_max)"""
    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")
    optional_tensors = (1, 2)  # a bound left out still has its edge

    @staticmethod
    def forward(ctx, a, low, high):
        ctx.save_for_backward(a, low, high)
        out = a._data
        if low is not None:
            out = np.maximum(low._data, out)
        if high is not None:
            out = np.minimum(high._data, out)
        if out.shape != a._data.shape:  # the result takes a's shape: bounds do not widen it
            raise RuntimeError(f"output with shape {_listed(a.shape)} doesn't match the "
                               f"broadcast shape {_listed(out.shape)}")
        dtype = result_type(a, *(b for b in (low, high) if b is not None))  # (None is no bound)
        return tensor_of(np.asarray(out, dtype=dtype.numpy))

    @staticmethod
    def backward(ctx, grad):
        a, low, high = ctx.saved_tensors
        x = a._data
        if low is not None and high is not None:
            lo, hi = low._data, high._data
            picked = ((x >= lo) & (x <= hi), (x < lo) & (lo < hi), (x > hi) | (hi < lo))
        elif low is not None:
            picked = (x >= low._data, x < low._data, None)
        else:
            picked = (x <= high._data, None, x > high._data)
        return tuple(where(tensor_of(p), grad, 0.0) if needed and p is not None else None
                     for p, needed in zip(picked, ctx.needs_input_grad))


def _listed(shape: tuple) -> str:
    return f"[{', '.join(map(str, shape))}]"


def clamp(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002 - PyTorch's names
    """torch.clamp's two overloads, chosen as PyTorch's argument parser chooses: numbers (a
    zero-dim tensor beside a number counts as one) record ClampBackward1, tensors
    ClampBackward0."""
    bounds = (min, max)
    if any(isinstance(b, Tensor) for b in bounds) and not any(
            isinstance(b, (int, float)) for b in bounds):
        return ClampTensors.apply(a, min, max)
    bounds = [b.item() if isinstance(b, Tensor) else b for b in bounds]
    return Clamp.apply(promoted_for_bounds(a, bounds), *bounds)


def promoted_for_bounds(a: Tensor, bounds: Any) -> Tensor:
    """An integer or bool tensor clamped by numbers is clamped in their promoted dtype, as
    PyTorch's: by a float, float32 (it stayed an integer tensor); a bool by an int, int64."""
    if a._data.dtype.kind not in "biu":
        return a
    return a.to(result_type(a, *(b for b in bounds if b is not None)))


class Where(Function):
    """where(c, a, b): the gradient goes to a where c holds, to b elsewhere"""
    node_name = "WhereBackward0"

    @staticmethod
    def forward(ctx, condition, a, b):
        ctx.condition = condition
        return result_like(np.where(condition._data, a._data, b._data), a)

    @staticmethod
    def backward(ctx, grad):
        return None, where(ctx.condition, grad, 0.0), where(ctx.condition, 0.0, grad)


def where(condition: Tensor, a: Any, b: Any) -> Tensor:
    a, b = as_tensor_pair(a, b)
    if not condition.shape == a.shape == b.shape:  # PyTorch's error, shape by shape in order
        shape = condition.shape
        for operand in (a, b):
            check_broadcast(shape, operand.shape)
            shape = np.broadcast_shapes(shape, operand.shape)
    return Where.apply(condition, a, b)


class Sign(Function):
    """d sign(a) = 0 (wherever it is defined)"""
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, a):
        if a._data.dtype.kind == "b":
            return tensor_of(a._data.copy())
        return result_like(np.sign(a._data) if a._data.dtype.kind != "f"
                           else (a._data > 0).astype(a._data.dtype) - (a._data < 0), a)  # nan: 0

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad)


def sign(a: Tensor) -> Tensor:
    return Sign.apply(a)


class Sgn(Sign):
    """sgn, sign's complex-ready twin: what PyTorch's backward formulas of abs and the norms
    record (SgnBackward0); on real numbers it is sign, and its gradient an efficient zero."""
    node_name = "SgnBackward0"

    @staticmethod
    def backward(ctx, grad):
        return efficient_zero(grad)


class Maximum(Function):
    """maximum(a, b) (and torch.max(a, b)): the gradient goes to the larger of the two, half to
    each where they are equal, as PyTorch splits it"""
    node_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b, pick=np.maximum):
        ctx.save_for_backward(a, b)
        ctx.larger = pick is np.maximum
        return result_like(pick(b._data, a._data), a)  # a on ties (ZERO_SIGNS)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need = ctx.needs_input_grad
        # derivatives.yaml's, each side on its own: where a NaN is, both get it all
        a_lost, b_lost = (a < b, a > b) if ctx.larger else (a > b, a < b)
        return tuple(where(a == b, DivScalar.apply(grad, 2), grad).masked_fill(lost, 0)
                     if need[i] else None for i, lost in enumerate((a_lost, b_lost))) + (None,)


class Minimum(Maximum):
    node_name = "MinimumBackward0"


def maximum(a: Tensor, b: Tensor) -> Tensor:
    return Maximum.apply(*as_tensor_pair(a, b), np.maximum)


def minimum(a: Tensor, b: Tensor) -> Tensor:
    return Minimum.apply(*as_tensor_pair(a, b), np.minimum)


class ClampMin(Function):
    """clamp_min(a, m) = max(a, m): d = da where a >= m, else 0"""
    node_name = "ClampMinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, bound):
        ctx.save_for_backward(a)
        ctx.bound = bound
        return result_like(np.maximum(bound, a._data) if ctx._forward_cls is ClampMin
                           else np.minimum(bound, a._data), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        inside = a._data >= ctx.bound if ctx._forward_cls is ClampMin else a._data <= ctx.bound
        return where(tensor_of(inside), grad, 0.0), None


class ClampMax(ClampMin):
    """clamp_max(a, m) = min(a, m): d = da where a <= m, else 0"""
    node_name = "ClampMaxBackward0"
