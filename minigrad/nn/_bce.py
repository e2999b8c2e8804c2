"""binary_cross_entropy_with_logits as one op, with PyTorch's grad_fn name and formula."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor


class BinaryCrossEntropyWithLogits(Function):
    """Per element (1 - y) * x + log(1 + exp(-x)), written as PyTorch writes it so that a large
    |x| cannot overflow: with m = max(-x, 0), (1 - y) * x + m + log(exp(-m) + exp(-x - m)).
    With pos_weight p the log term is scaled by 1 + (p - 1) * y. d/dx is sigmoid(x) - y
    (times the weights), and PyTorch does not differentiate the target here either."""
    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, x, y, weight, pos_weight, reduction):
        xs, ys = x._data, y._data
        m = np.maximum(-xs, 0)
        log_term = m + np.log(np.exp(-m) + np.exp(-xs - m))
        if pos_weight is not None:
            log_term = log_term * (1 + (pos_weight._data - 1) * ys)
        loss = (1 - ys) * xs + log_term
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
        if pos_weight is None:
            d = x.sigmoid() - y
        else:
            d = ((pos_weight - 1) * y + 1) * x.sigmoid() - pos_weight * y
        if weight is not None:
            d = d * weight
        if ctx.reduction == "mean":
            d = d * (grad / ctx.numel)
        else:
            d = d * grad
        return d, None, None, None, None
