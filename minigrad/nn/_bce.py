"""binary_cross_entropy and binary_cross_entropy_with_logits as one op each, with PyTorch's
grad_fn names and formulas. Both differentiate the input and the target, never the weights:
PyTorch's nodes have two edges (input, target), and a weight that requires grad is refused
(nn/functional.py); the weights are handed over in a tuple so that they make no edge, and saved
all the same (saved-tensor hooks see what PyTorch's nodes save, in its order)."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..fidelity.formulas import log1p_from_double, log_from_double
from ..fidelity.summation import mean_like_torch, sum_like_torch
from ..ops.scalars import DivScalar
from ..tensor import Tensor, tensor_of


def _reduced(loss: np.ndarray, reduction: str) -> np.ndarray:
    """As PyTorch's loss.mean() / loss.sum() would add it up."""
    if reduction == "mean":
        return mean_like_torch(loss)
    return sum_like_torch(loss) if reduction == "sum" else loss


def _log_sigmoid(x: Tensor) -> Tensor:
    """log(sigmoid(x)) written so that a large |x| cannot overflow: min(x, 0) - log1p(exp(-|x|))
    (PyTorch's log_sigmoid)."""
    return x.clamp(max=0) - (-x.abs()).exp().log1p()


class BinaryCrossEntropyWithLogits(Function):
    """Per element (1 - y) * x - log(sigmoid(x)); with pos_weight p the log term is scaled by
    1 + (p - 1) * y. d/dx is sigmoid(x) - y, d/dy is -x (with p: log(sigmoid(-x)) -
    p log(sigmoid(x))), each times the weight, and divided by the count for the mean."""
    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target", "weight", "pos_weight")

    @staticmethod
    def forward(ctx, x, y, weights, reduction):
        weight, pos_weight = weights
        xs, ys = x._data, y._data
        if not y.dtype.is_floating_point:  # PyTorch's (1 - target).mul_(input) refuses it
            if ys.dtype == np.bool_:
                raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                                   "supported. Use the `^` or `logical_xor()` operator instead.")
            raise RuntimeError(f"result type {x.dtype.scalar_name} can't be cast to the "
                               f"desired output type {y.dtype.scalar_name}")
        # PyTorch's steps, each rounded where its in-place ops write: the log-sigmoid (scaled by
        # pos_weight) in the input's dtype, then (1 - target).mul_(input).sub_(...) in the
        # target's, which is the loss's dtype
        log_sigmoid = np.minimum(xs, 0) - np.log1p(np.exp(-np.abs(xs)))
        if pos_weight is not None:
            log_weight = (pos_weight._data - 1) * ys + 1
            log_sigmoid = (log_sigmoid * log_weight).astype(xs.dtype, copy=False)
        loss = ((1 - ys) * xs).astype(ys.dtype, copy=False)
        loss = (loss - log_sigmoid).astype(ys.dtype, copy=False)
        if weight is not None:
            loss = (loss * weight._data).astype(ys.dtype, copy=False)
        ctx.reduction, ctx.numel = reduction, xs.size
        ctx.save_for_backward(x, y, weight, pos_weight)
        return tensor_of(np.asarray(_reduced(loss, reduction)))

    @staticmethod
    def backward(ctx, grad):
        x, y, weight, pos_weight = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad[:2]
        dx = dy = None
        if need_x:  # PyTorch's steps: (sigmoid(x) - y) * g, weighted, / numel
            if pos_weight is None:
                dx = (x.sigmoid() - y) * grad
            else:
                t = pos_weight * y
                dx = ((t + 1 - y) * x.sigmoid() - t) * grad
        if need_y:
            if pos_weight is None:
                dy = -x * grad
            else:
                dy = (_log_sigmoid(-x) - _log_sigmoid(x) * pos_weight) * grad
        return (*(_weighted(d, weight, ctx) for d in (dx, dy)), None, None)


def _weighted(d: Tensor | None, weight: Tensor | None, ctx) -> Tensor | None:  # noqa: ANN001
    if d is None:
        return None
    if weight is not None:
        d = d * weight
    return DivScalar.apply(d, ctx.numel) if ctx.reduction == "mean" else d


_EPSILON = float(np.float32(1e-12))  # PyTorch's constant is a C float, in double too


class BinaryCrossEntropy(Function):
    """Per element -(y log(x) + (1 - y) log(1 - x)) on probabilities x, each log floored at
    -100 as PyTorch does (so x = 0 or 1 gives 100, not inf). d/dx is (x - y) / (x (1 - x)),
    its denominator kept from 0 by 1e-12 (PyTorch's EPSILON); d/dy is -log(x / (1 - x))."""
    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target", "weight")

    @staticmethod
    def forward(ctx, x, y, weights, reduction):
        (weight,) = weights
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
        return tensor_of(np.asarray(_reduced(loss, reduction), dtype=xs.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y, weight = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad[:2]
        dx = (BinaryCrossEntropyBackward.apply(grad, x, y, (weight,), ctx.reduction)
              if need_x else None)
        dy = -(x / (1 - x)).log() * grad if need_y else None  # -logit(x)
        return dx, _weighted(dy, weight, ctx), None, None


_DOUBLE_EPSILON = 1e-12  # the double backward's, a C double


class BinaryCrossEntropyBackward(Function):
    """binary_cross_entropy_backward as an op of its own, as in PyTorch: differentiated again
    (create_graph), it gives FunctionsManual's gradients, so that a hessian's values (each
    denominator kept from 0 by adding 1e-12) and the signs of its zeros are PyTorch's"""
    node_name = "BinaryCrossEntropyBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, y, weights, reduction):
        (weight,) = weights
        ctx.save_for_backward(grad, x, y, weight)
        ctx.reduction, ctx.numel = reduction, x.numel()
        return _weighted(grad * (x - y) / ((1 - x) * x).clamp(min=_EPSILON), weight, ctx)

    @staticmethod
    def backward(ctx, gg):
        grad, x, y, weight = ctx.saved_tensors
        need_grad, need_x, need_y = ctx.needs_input_grad[:3]
        eps = _DOUBLE_EPSILON
        d_grad = d_x = d_y = None
        if need_grad:
            d_grad = (x - y) / ((x + eps) * (1 - x + eps)) * gg
            d_grad = d_grad if weight is None else d_grad * weight
            if ctx.reduction != "none":
                d_grad = d_grad.sum() / ctx.numel if ctx.reduction == "mean" else d_grad.sum()
        if need_x:
            d_x = (x * x - 2 * x * y + y) / ((x + eps).pow(2) * (1 - x + eps).pow(2)) * (gg * grad)
            d_x = _weighted(d_x, weight, ctx)
        if need_y:
            denominator = (1 - x) * x  # kept from 0 by its value alone, as PyTorch's clamp_min_
            floor = np.maximum(denominator._data, eps) - denominator._data  # under no_grad
            d_y = -gg * grad
            d_y = d_y if weight is None else d_y * weight
            d_y = d_y / (denominator + tensor_of(floor))
            d_y = d_y / ctx.numel if ctx.reduction == "mean" else d_y
        return d_grad, d_x, d_y, None, None
