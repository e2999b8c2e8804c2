"""The losses that are quadratic near zero and linear beyond a threshold: smooth_l1_loss (the
quadratic part divided by beta) and huber_loss (the linear part multiplied by delta). Values and
gradients as PyTorch's CPU kernels compute them, in the operands' promoted dtype; smooth_l1_loss
returns that dtype, huber_loss the input's (its kernel writes into an empty_like(input)), and
huber_loss's backward refuses operands of different dtypes, as PyTorch's does."""
from __future__ import annotations

import numpy as np

from .. import fidelity
from .._dtype import result_type
from ..autograd.function import Function
from ..ops.selection import where
from ..tensor import Tensor, tensor_of


class SmoothL1Loss(Function):
    """z = |a - b|: z²/(2 beta) below beta, z - beta/2 above; d a = clip((a - b)/beta, -1, 1) g
    (divided by n for the mean), d b = -d a"""
    node_name = "SmoothL1LossBackward0"
    huber = False

    @staticmethod
    def forward(ctx, a, b, reduction, threshold):
        ctx.save_for_backward(a, b)
        ctx.reduction, ctx.threshold = reduction, threshold
        common = result_type(a, b).numpy
        x, y = a._data.astype(common, copy=False), b._data.astype(common, copy=False)
        t, half = x.dtype.type(threshold), x.dtype.type(0.5)
        z = np.abs(x - y)
        if ctx._forward_cls.huber:
            losses = np.where(z < t, half * z * z, t * (z - half * t)).astype(a._data.dtype)
        else:
            losses = np.where(z < t, half * z * z / t, z - half * t).astype(common)
        if reduction == "sum":
            return tensor_of(fidelity.sum_like_torch(losses, None, False))
        if reduction == "mean":
            return tensor_of(fidelity.mean_like_torch(losses))
        return tensor_of(losses)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # PyTorch computes each side's gradient with its own difference, by the same backward op
        huber = ctx._forward_cls.huber
        if huber and a.dtype != b.dtype:  # huber_loss_backward's TensorIterator wants one dtype
            first, second = (a, b) if ctx.needs_input_grad[0] else (b, a)
            raise RuntimeError(f"Found dtype {second.dtype.scalar_name} but expected "
                               f"{first.dtype.scalar_name}")
        op, options = HuberLossBackward if huber else SmoothL1LossBackward, (
            ctx.reduction, ctx.threshold, huber)
        return (op.apply(grad, a, b, *options) if ctx.needs_input_grad[0] else None,
                op.apply(grad, b, a, *options) if ctx.needs_input_grad[1] else None, None, None)


class SmoothL1LossBackward(Function):
    """smooth_l1_loss_backward (huber_loss_backward) as an op of its own, as in PyTorch, so that
    differentiated again it gives derivatives.yaml's gradients: for x, gg * grad where
    |x - y| < threshold (divided by beta for smooth_l1, by n for the mean), for y the opposite;
    for grad, the op again on gg (huber's, reduced, the sum of its product with gg)"""
    node_name = "SmoothL1LossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, y, reduction, threshold, huber):
        ctx.save_for_backward(grad, x, y)
        ctx.options = reduction, threshold, huber
        norm = 1 / x.numel() if reduction == "mean" else 1.0
        diff, t = x - y, threshold
        if huber:
            above, below, inside = grad * norm * t, grad * -norm * t, diff * norm * grad
        else:
            above, below, inside = grad * norm, grad * -norm, diff * norm * grad / t
        return where(diff >= t, above, where(diff <= -t, below, inside))

    @staticmethod
    def backward(ctx, gg):
        grad, x, y = ctx.saved_tensors
        reduction, threshold, huber = ctx.options
        needs = ctx.needs_input_grad
        if huber and reduction != "none" and needs[0]:
            ones = tensor_of(np.ones(grad._data.shape, grad._data.dtype))
            d_grad = (ctx._forward_cls.apply(ones, x, y, *ctx.options) * gg).sum()
        elif needs[0]:
            d_grad = ctx._forward_cls.apply(gg, x, y, *ctx.options)
        else:
            d_grad = None
        d_x = None
        if needs[1] or needs[2]:
            inside = tensor_of(np.abs(x._data - y._data) < threshold)
            d_x = gg * grad * inside
            d_x = d_x if huber else d_x / threshold
            d_x = d_x / x.numel() if reduction == "mean" else d_x
        return (d_grad, d_x if needs[1] else None, -d_x if needs[2] else None, None, None,
                None)


class HuberLoss(SmoothL1Loss):
    """z = |a - b|: z²/2 below delta, delta (z - delta/2) above;
    d a = clip(a - b, -delta, delta) g"""
    node_name = "HuberLossBackward0"
    huber = True


class HuberLossBackward(SmoothL1LossBackward):
    node_name = "HuberLossBackwardBackward0"
