"""The Functions behind minigrad.nn.functional, with PyTorch's grad_fn names. Each backward is
written with tensor operations, so that `create_graph=True` can differentiate it again."""
from __future__ import annotations

import numpy as np

from .._dtype import result_type
from ..autograd.function import Function
from ..fidelity.products import matmul_like_torch
from ..fidelity.summation import mean_like_torch, nll_sum_like_torch, sum_like_torch
from ..ops.operands import zero_gradient
from ..ops.pointwise import DivScalar, MulScalar
from ..ops.selection import where
from ..tensor import Tensor, tensor_of


class Addmm(Function):
    """bias + x @ wt: d bias = g (summed over rows), d x = g @ wt^T, d wt = x^T @ g"""
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, x, wt):
        if x.dtype is not wt.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                               f"{_word(x)} and {_word(wt)}")
        if x.shape[1] != wt.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x"
                               f"{x.shape[1]} and {wt.shape[0]}x{wt.shape[1]})")
        ctx.save_for_backward(x if wt.requires_grad else None, wt if x.requires_grad else None)
        product = matmul_like_torch(x._data, wt._data)  # then the bias, as PyTorch adds it
        return tensor_of(np.asarray(product + bias._data, dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, wt = ctx.saved_tensors
        need = ctx.needs_input_grad
        return (grad if need[0] else None, grad.mm(wt.t()) if need[1] else None,
                x.t().mm(grad) if need[2] else None)


class LeakyRelu(Function):
    """d leaky_relu(x) = g where x > 0, else negative_slope * g"""
    node_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(x)
        return tensor_of(np.where(x._data > 0, x._data, x._data * negative_slope))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, x, ctx.negative_slope), None


class LeakyReluBackward(Function):
    """leaky_relu's backward as an op of its own, as in PyTorch, so that under create_graph it
    has PyTorch's name: g where x > 0, else negative_slope * g; d/dx is 0"""
    node_name = "LeakyReluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, negative_slope):
        ctx.negative_slope, ctx.positive = negative_slope, tensor_of(x._data > 0)
        return tensor_of(np.where(x._data > 0, grad._data, grad._data * negative_slope))

    @staticmethod
    def backward(ctx, grad_grad):
        return (where(ctx.positive, grad_grad, grad_grad * ctx.negative_slope),
                zero_gradient(grad_grad), None)


class NllLoss(Function):
    """-w[target] * logp[target] per sample: the gradient is -w[target] (divided by the sum of
    the weights for the mean) at each sample's target entry and 0 elsewhere. `target_and_weight`
    holds the target and the class weights (a tensor, or None for all ones): in a tuple, as they
    are not inputs the graph links to (PyTorch's node has one edge), though the node saves them."""
    node_name = "NllLossBackward0"
    saved_names = ("self", "target", "weight", "total_weight")

    @staticmethod
    def forward(ctx, logp, target_and_weight, reduction, ignore_index):
        target, weight = target_and_weight
        labels = target._data
        class_weights = None if weight is None else weight._data.astype(logp._data.dtype)
        axis = 0 if logp.ndim == 1 else 1  # where the classes are
        kept = labels != ignore_index
        bad = kept & ((labels < 0) | (labels >= logp.shape[axis]))
        if bad.any():
            raise IndexError(f"Target {labels[bad].reshape(-1)[0]} is out of bounds.")
        safe_labels = np.where(kept, labels, 0)
        index = np.expand_dims(safe_labels, axis)
        picked = np.take_along_axis(logp._data, index, axis).squeeze(axis)
        weights = kept.astype(logp._data.dtype)
        if class_weights is not None:
            weights = weights * class_weights[safe_labels]
        losses = (-picked * weights).astype(logp._data.dtype)
        total = 0
        if reduction != "none":  # as PyTorch's kernel adds them up (a count without weights)
            total = (nll_sum_like_torch(weights.reshape(-1), kept.reshape(-1))
                     if class_weights is not None
                     else weights.dtype.type(kept.sum()))
        # What PyTorch saves, though backward needs only `local` (saved-tensor hooks see them)
        ctx.save_for_backward(logp, target, weight,
                              tensor_of(np.asarray(total, dtype=logp._data.dtype)))
        if reduction != "none":
            value = nll_sum_like_torch(losses.reshape(-1), kept.reshape(-1))
        if reduction == "mean":  # a weighted mean over the samples not ignored (nan if none)
            value = value / total if total else np.nan
        elif reduction == "none":
            value = losses
        ctx.where = _NllEntries(logp.shape, index, axis, kept, weights, total, reduction)
        ctx.reduction, ctx.ignore_index = reduction, ignore_index
        return tensor_of(np.asarray(value, dtype=logp._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        # read as PyTorch does: in-place changes, saved-tensor hooks see it
        logp, target, weight, _ = ctx.saved_tensors
        backward_op = NllLoss2dBackward if ctx._forward_cls is NllLoss2d else NllLossBackward
        return backward_op.apply(grad, logp, ctx.where,
                                 (target, weight, ctx.reduction, ctx.ignore_index)), \
            None, None, None


class NllLoss2d(NllLoss):
    """nll_loss of an input with spatial dimensions (N, C, H, W), PyTorch's nll_loss2d."""
    node_name = "NllLoss2DBackward0"


class _NllEntries:
    """Where nll_loss's gradient is not zero and what it is made of: each sample's target entry
    (`index` along `axis`), whether the sample counts (`kept`), its class weight (1 without
    weights) and the weights' sum `total`."""

    def __init__(self, shape, index, axis, kept, weights, total, reduction):
        self.shape, self.index, self.axis, self.kept = shape, index, axis, kept
        self.weights, self.total, self.reduction = weights, total, reduction

    def gradient(self, grad: np.ndarray) -> np.ndarray:
        """In the order of ATen's nll_loss(2d)_backward CPU kernels: w * -(grad / total) for the
        mean, w * -grad for the sum, -w * grad[sample] for none; every other entry, an ignored
        sample's too, stays the +0 of a zero-filled gradient."""
        dtype = self.weights.dtype
        if self.reduction == "none":
            values = -self.weights * grad.astype(dtype, copy=False)
        else:
            g = grad.astype(dtype, copy=False)
            values = self.weights * -(g / dtype.type(self.total) if self.reduction == "mean" else g)
        out = np.zeros(self.shape, dtype=dtype)
        values = np.where(self.kept, values, dtype.type(0))
        np.put_along_axis(out, self.index, np.expand_dims(values, self.axis), self.axis)
        return out


class NllLossBackward(Function):
    """nll_loss's backward as an op of its own, as in PyTorch (its node has an edge to the log
    probabilities, though the gradient does not depend on them): grad at each sample's target
    entry (`_NllEntries`); differentiated again, derivatives.yaml's: nll_loss of gg for grad,
    zeros for the log probabilities."""
    node_name = "NllLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, logp, where, loss_arguments):
        ctx.loss_arguments = loss_arguments
        return tensor_of(where.gradient(grad._data))

    @staticmethod
    def backward(ctx, gg):
        target, weight, reduction, ignore_index = ctx.loss_arguments
        loss = NllLoss2d if ctx._forward_cls is NllLoss2dBackward else NllLoss
        grad = (loss.apply(gg, (target, weight), reduction, ignore_index)
                if ctx.needs_input_grad[0] else None)
        return grad, zero_gradient(gg) if ctx.needs_input_grad[1] else None, None, None


class NllLoss2dBackward(NllLossBackward):
    node_name = "NllLoss2DBackwardBackward0"


class MseLoss(Function):
    """(a - b)^2, reduced: d a = 2 (a - b) g (divided by n for the mean), d b = -d a"""
    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, a, b, reduction):
        # in PyTorch's result dtype: a float32 input and an int64 target give float32
        dt = a._data.dtype if a._data.dtype == b._data.dtype else result_type(a, b).numpy
        squares = (a._data.astype(dt, copy=False) - b._data.astype(dt, copy=False)) ** 2
        ctx.reduction, ctx.count = reduction, squares.size
        ctx.save_for_backward(a, b)
        # reduced as PyTorch's unreduced.sum() / .mean(), in its order of additions
        value = (squares if reduction == "none" else sum_like_torch(squares)
                 if reduction == "sum" else mean_like_torch(squares))
        return tensor_of(np.asarray(value, dtype=squares.dtype))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need = ctx.needs_input_grad  # each side from its own difference, as PyTorch does
        return (MseLossBackward.apply(grad, a, b, ctx.reduction) if need[0] else None,
                MseLossBackward.apply(grad, b, a, ctx.reduction) if need[1] else None, None)


class MseLossBackward(Function):
    """mse_loss_backward as an op of its own, as in PyTorch: its kernel's norm * (x - y) * grad
    (norm = 2, or 2 / n for the mean, in the dtype: the rounding of PyTorch's gradient), and
    differentiated again derivatives.yaml's gradients (2 gg grad, over n for the mean, for x;
    the opposite for y; the op again on gg for grad)"""
    node_name = "MseLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, y, reduction):
        ctx.save_for_backward(grad, x, y)
        ctx.reduction = reduction
        difference = (x - y)._data
        dtype = difference.dtype
        norm = dtype.type(2 / difference.size if reduction == "mean" else 2)
        return tensor_of(np.asarray(norm * difference * grad._data, dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x, y = ctx.saved_tensors
        need = ctx.needs_input_grad
        d_x = None
        if need[1] or need[2]:
            d_x = MulScalar.apply(gg * grad, 2)
            d_x = DivScalar.apply(d_x, x.numel()) if ctx.reduction == "mean" else d_x
        return (MseLossBackward.apply(gg, x, y, ctx.reduction) if need[0] else None,
                d_x if need[1] else None, -d_x if need[2] else None, None)


def _word(t: Tensor) -> str:
    """PyTorch's short dtype word in messages: Float, Double, Long..."""
    return t.dtype.tensor_type.replace("Tensor", "")


class PreluKernel(Function):
    """x where x > 0, else weight * x (weight broadcast over x, as F.prelu shapes it):
    d x = g where x > 0, else weight * g; d weight = 0 where x > 0, else x * g (summed back to
    the weight's shape as a broadcast gradient is)"""
    node_name = "PreluKernelBackward0"

    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return tensor_of(np.where(x._data > 0, x._data, weight._data * x._data))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        positive = x > 0
        need = ctx.needs_input_grad
        return (where(positive, grad, weight * grad) if need[0] else None,
                where(positive, 0.0, x * grad) if need[1] else None)
