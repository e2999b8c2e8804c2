"""The losses that are quadratic near zero and linear beyond a threshold: smooth_l1_loss (the
quadratic part divided by beta) and huber_loss (the linear part multiplied by delta). Values and
gradients as PyTorch's CPU kernels compute them, in the input's dtype."""
from __future__ import annotations

import numpy as np

from .. import fidelity
from ..autograd.function import Function
from ..ops.selection import where
from ..tensor import Tensor


class SmoothL1Loss(Function):
    """z = |a - b|: z²/(2 beta) below beta, z - beta/2 above; d a = clip((a - b)/beta, -1, 1) g
    (divided by n for the mean), d b = -d a"""
    node_name = "SmoothL1LossBackward0"
    huber = False

    @staticmethod
    def forward(ctx, a, b, reduction, threshold):
        ctx.save_for_backward(a, b)
        ctx.reduction, ctx.threshold = reduction, threshold
        x, y = a._data, b._data
        t, half = x.dtype.type(threshold), x.dtype.type(0.5)
        z = np.abs(x - y)
        if ctx._forward_cls.huber:
            losses = np.where(z < t, half * z * z, t * (z - half * t))
        else:
            losses = np.where(z < t, half * z * z / t, z - half * t)
        losses = losses.astype(x.dtype)
        if reduction == "sum":
            return Tensor(fidelity.sum_like_torch(losses, None, False))
        if reduction == "mean":
            return Tensor(fidelity.mean_like_torch(losses))
        return Tensor(losses)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        huber = ctx._forward_cls.huber
        norm = 1 / a.numel() if ctx.reduction == "mean" else 1.0

        def one_side(x, y):  # PyTorch computes each side's gradient with its own difference
            diff, t = x - y, ctx.threshold
            if huber:
                above, below, inside = grad * norm * t, grad * -norm * t, diff * norm * grad
            else:
                above, below, inside = grad * norm, grad * -norm, diff * norm * grad / t
            return where(diff >= t, above, where(diff <= -t, below, inside))

        return (one_side(a, b) if ctx.needs_input_grad[0] else None,
                one_side(b, a) if ctx.needs_input_grad[1] else None, None, None)


class HuberLoss(SmoothL1Loss):
    """z = |a - b|: z²/2 below delta, delta (z - delta/2) above;
    d a = clip(a - b, -delta, delta) g"""
    node_name = "HuberLossBackward0"
    huber = True
