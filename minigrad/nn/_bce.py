"""binary_cross_entropy_with_logits as one op, with PyTorch's grad_fn name and formula."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..fidelity.formulas import log1p_from_double, log_from_double
from ..fidelity.summation import mean_like_torch, sum_like_torch
from ..tensor import Tensor


class BinaryCrossEntropyWithLogits(Function):
    """Per element (1 - y) * x - log(sigmoid(x)), with log(sigmoid(x)) written as PyTorch
    writes it so that a large |x| cannot overflow: min(x, 0) - log1p(exp(-|x|)). With
    pos_weight p the log term is scaled by 1 + (p - 1) * y. d/dx is sigmoid(x) - y
    (times the weights), and PyTorch does not differentiate the target here either."""
    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, x, y, weight, pos_weight, reduction):
        xs, ys = x._data, y._data
        log_sigmoid = np.minimum(xs, 0) - np.log1p(np.exp(-np.abs(xs)))
        if pos_weight is not None:
            log_sigmoid = log_sigmoid * ((pos_weight._data - 1) * ys + 1)
        loss = (1 - ys) * xs - log_sigmoid
        if weight is not None:
            loss = loss * weight._data
        ctx.reduction, ctx.numel = reduction, xs.size
        ctx.save_for_backward(x, y, weight, pos_weight)
        if reduction == "mean":
            loss = loss.mean()
        elif reduction == "sum":
            loss = loss.sum()
        return Tensor(np.asarray(loss, dtype=xs.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y, weight, pos_weight = ctx.saved_tensors
        if pos_weight is None:  # PyTorch's steps: (sigmoid(x) - y) * g, weighted, / numel
            d = (x.sigmoid() - y) * grad
        else:
            t = pos_weight * y
            d = ((t + 1 - y) * x.sigmoid() - t) * grad
        if weight is not None:
            d = d * weight
        if ctx.reduction == "mean":
            d = d / ctx.numel
        return d, None, None, None, None


_EPSILON = float(np.float32(1e-12))  # PyTorch's constant is a C float, in double too


class BinaryCrossEntropy(Function):
    """Per element -(y log(x) + (1 - y) log(1 - x)) on probabilities x, each log floored at
    -100 as PyTorch does (so x = 0 or 1 gives 100, not inf). d/dx is (x - y) / (x (1 - x)),
    its denominator kept from 0 by 1e-12 (PyTorch's EPSILON)."""
    node_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(ctx, x, y, weight, reduction):
        xs, ys = x._data, y._data
        if ((xs < 0) | (xs > 1)).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
        if ((ys < 0) | (ys > 1)).any():
            raise RuntimeError("all elements of target should be between 0 and 1")
        f = xs.dtype.type
        with np.errstate(divide="ignore"):
            log_x = np.maximum(log_from_double(xs), f(-100))
            log_1mx = np.maximum(log1p_from_double(-xs), f(-100))
        loss = (ys - f(1)) * log_1mx - ys * log_x
        if weight is not None:
            loss = loss * weight._data
        ctx.reduction, ctx.numel = reduction, xs.size
        ctx.save_for_backward(x, y, weight)
        if reduction == "mean":  # reduced as PyTorch's loss.mean() / loss.sum() would
            loss = mean_like_torch(loss)
        elif reduction == "sum":
            loss = sum_like_torch(loss)
        return Tensor(np.asarray(loss, dtype=xs.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y, weight = ctx.saved_tensors
        d = grad * (x - y) / ((1 - x) * x).clamp(min=_EPSILON)
        if weight is not None:
            d = d * weight
        if ctx.reduction == "mean":
            d = d / ctx.numel
        return d, None, None, None
