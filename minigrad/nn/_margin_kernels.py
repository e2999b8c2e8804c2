"""The three losses PyTorch computes in native kernels of their own (one grad_fn each, where
the other margin losses are composed of ops): soft_margin_loss, log(1 + exp(-y x)),
multi_margin_loss, the hinge of the target's score against each other class's, and
multilabel_margin_loss, the same for several target classes. Values as PyTorch's CPU kernels
round them: a row's terms added one by one in the input's dtype (multilabel's in float64), the
rows' total in float64."""
from __future__ import annotations

import numpy as np

from .. import fidelity
from ..autograd.function import Function
from ..fidelity.formulas import log1p_from_double
from ..fidelity.vector_math import exp_like_torch
from ..tensor import Tensor, tensor_of


def _reduced(losses: np.ndarray, reduction: str) -> Tensor:
    """apply_loss_reduction: the losses, or their sum or mean as PyTorch's sum and mean add."""
    if reduction == "sum":
        return tensor_of(fidelity.sum_like_torch(losses, None, False))
    if reduction == "mean":
        return tensor_of(fidelity.mean_like_torch(losses))
    return tensor_of(losses)


class SoftMarginLoss(Function):
    """log1p(exp(-input * target)): d input = -target z / (1 + z) g, z = exp(-target input)"""
    node_name = "SoftMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, y, reduction):
        ctx.save_for_backward(x, y)
        ctx.reduction = reduction
        losses = log1p_from_double(exp_like_torch(-x._data * y._data))
        return _reduced(losses.astype(x._data.dtype), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return SoftMarginLossBackward.apply(grad, x, y, ctx.reduction), None, None


class SoftMarginLossBackward(Function):
    """soft_margin_loss_backward as PyTorch's kernel rounds it: (target * z) * -norm / (z + 1)
    * grad; differentiated again, derivatives.yaml's: the op again on gg for grad, gg grad
    target² z / (1 + z)² (divided by n for the mean) for the input."""
    node_name = "SoftMarginLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, y, reduction):
        ctx.save_for_backward(grad, x, y)
        ctx.reduction = reduction
        dtype = x._data.dtype.type
        norm = 1.0 / x.numel() if reduction == "mean" else 1.0
        z = exp_like_torch(-y._data * x._data)
        d_x = (y._data * z) * dtype(-norm) / (z + dtype(1)) * grad._data
        return tensor_of(np.broadcast_to(d_x, x.shape).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_grad = SoftMarginLossBackward.apply(gg, x, y, ctx.reduction) if needs[0] else None
        if d_grad is not None and ctx.reduction != "none":
            d_grad = d_grad.sum()
        d_x = None
        if needs[1]:
            z = (x * -y).exp()
            zplus1 = z + 1
            d_x = gg * grad * (y * y) * z / (zplus1 * zplus1)
            d_x = d_x / x.numel() if ctx.reduction == "mean" else d_x
        return d_grad, d_x, None, None


class _NotDifferentiable(Function):
    """A backward that PyTorch does not differentiate again: grad_fn NotImplemented (with one
    edge, to the input), and a backward through it names the op."""
    node_name = "NotImplemented"
    op = ""

    @staticmethod
    def forward(ctx, x, grad_and_compute):
        grad, compute = grad_and_compute
        return tensor_of(compute(grad._data))

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError(f"derivative for aten::{ctx._forward_cls.op} is not implemented")


class MultiMarginLossBackward(_NotDifferentiable):
    op = "multi_margin_loss_backward"


class MultilabelMarginLossBackward(_NotDifferentiable):
    op = "multilabel_margin_loss_backward"


def _frames(x: np.ndarray) -> np.ndarray:
    """The input as (frames, classes): a vector or a number is one frame."""
    return x.reshape(1, -1) if x.ndim < 2 else x


def _scaled_by(grad: np.ndarray, local: np.ndarray, shape: tuple) -> np.ndarray:
    """The kernel's last step: each frame's gradient times its own grad (or the one grad)."""
    scale = grad.reshape(-1, 1) if grad.ndim else grad
    return (local * scale).astype(local.dtype).reshape(shape)


class MultiMarginLoss(Function):
    """Σ_{d ≠ y} max(0, margin - x[y] + x[d])^p (times weight[y]) / classes, per frame"""
    node_name = "MultiMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, target, weight, p, margin, reduction, vector_out):
        data, labels = _frames(x._data), target._data.reshape(-1)
        rows = np.arange(data.shape[0])
        dtype = data.dtype.type
        picked = data[rows, labels]
        w = None if weight is None else weight._data.reshape(-1).astype(data.dtype)[labels]
        # the kernel's steps, class by class: a term z or z² where z = margin - x[y] + x[d] > 0
        # (times weight[y]) added to the frame's sum; its gradient g or 2 g z (times weight[y])
        # with g = 1/classes (1/all for the mean) in the input's dtype, taken from x[y]'s
        g = dtype(1.0 / data.size if reduction == "mean" else 1.0 / data.shape[1])
        sums = np.zeros(data.shape[0], data.dtype)
        local = np.zeros_like(data)
        target_grad = np.zeros(data.shape[0], data.dtype)
        for d in range(data.shape[1]):
            z = dtype(margin) - picked + data[:, d]
            violated = (z > 0) & (labels != d)
            term, h = (z, np.full(z.shape, g)) if p == 1 else (z * z, dtype(2) * g * z)
            if w is not None:
                term, h = term * w, h * w
            sums = sums + np.where(violated, term, dtype(0))
            h = np.where(violated, h, dtype(0))
            target_grad = np.where(violated, target_grad - h, target_grad)
            local[:, d] = h
        sums = sums / dtype(data.shape[1])
        local[rows, labels] = target_grad
        ctx.local, ctx.shape = local, x.shape
        ctx.save_for_backward(x, target, weight)
        if reduction == "none":
            return tensor_of(sums if vector_out else sums.reshape(()))
        total = _sequential_sum64(sums)
        return tensor_of(np.asarray(total / data.shape[0] if reduction == "mean" else total,
                                 data.dtype))

    @staticmethod
    def backward(ctx, grad):
        local, shape = ctx.local, ctx.shape
        return (MultiMarginLossBackward.apply(
                    ctx.saved_tensors[0], (grad, lambda g: _scaled_by(g, local, shape))),
                None, None, None, None, None, None)


def _sequential_sum64(values: np.ndarray) -> np.float64:
    """The frames' losses added one by one in float64 (the kernel's accumulator)."""
    total = np.float64(0)
    for value in values.astype(np.float64):
        total += value
    return total


class MultilabelMarginLoss(Function):
    """Σ over target classes j (up to the first -1), Σ over other classes d of
    max(0, 1 - x[j] + x[d]), / classes, per frame"""
    node_name = "MultilabelMarginLossBackward0"
    saved_names = ("self", "target", "is_target")

    @staticmethod
    def forward(ctx, x, target, reduction, vector_out):
        data, labels = _frames(x._data), target._data.reshape(_frames(x._data).shape)
        frames, classes = data.shape
        dtype = data.dtype.type
        # a frame's targets end at its first -1
        listed = np.cumprod(labels >= 0, axis=1).astype(bool)
        is_target = np.zeros_like(data)
        for t in range(frames):
            is_target[t, labels[t][listed[t]]] = 1
        sums = np.zeros(frames, np.float64)
        counts = np.zeros(data.shape, np.int64)  # how often each entry's g is added
        for dt in range(classes):
            targets = np.where(listed[:, dt], labels[:, dt], 0)
            picked = data[np.arange(frames), targets]
            for d in range(classes):
                z = dtype(1) - picked + data[:, d]
                hit = listed[:, dt] & (is_target[:, d] == 0) & (z > 0)
                sums = np.where(hit, sums + z.astype(np.float64), sums)
                counts[:, d] += hit
                np.subtract.at(counts, (np.arange(frames)[hit], targets[hit]), 1)
        g = dtype(1.0 / (frames * classes) if reduction == "mean" else 1.0 / classes)
        local = np.zeros_like(data)  # ±g added one at a time, as the kernel adds it
        for step in range(int(np.abs(counts).max(initial=0))):
            local = np.where(step < np.abs(counts), local + np.sign(counts).astype(dtype) * g,
                             local)
        ctx.local, ctx.shape = local, x.shape
        ctx.save_for_backward(x, target, tensor_of(is_target.reshape(x.shape)))
        if reduction == "none":
            losses = sums.astype(data.dtype) / dtype(classes)
            return tensor_of(losses if vector_out else losses.reshape(()))
        total = _sequential_sum64(sums) / classes
        return tensor_of(np.asarray(total / frames if reduction == "mean" else total, data.dtype))

    @staticmethod
    def backward(ctx, grad):
        local, shape = ctx.local, ctx.shape
        return (MultilabelMarginLossBackward.apply(
                    ctx.saved_tensors[0], (grad, lambda g: _scaled_by(g, local, shape))),
                None, None, None)

