"""torch.nn.functional's margin losses and likelihood losses beyond the common ones, composed of
ops as PyTorch composes them (so that their graphs have PyTorch's nodes), or, for
soft_margin_loss, multi_margin_loss and multilabel_margin_loss, PyTorch's own kernels
(_margin_kernels.py). Argument checks and their wording are PyTorch's."""
from __future__ import annotations

import math
from collections.abc import Callable

from .. import _grad_mode
from ..ops.norm import VectorNorm
from ..ops.scalars import AddScalar, MulScalar
from ..ops.selection import minimum, where
from ..tensor import Tensor
from ._loss_arguments import (broadcast_shape, check_reduction, legacy_reduction,
                              refuse_grad_of)
from ._margin_kernels import MultilabelMarginLoss, MultiMarginLoss, SoftMarginLoss
from .activations import logsigmoid


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    """apply_loss_reduction: each loss, their mean or their sum."""
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def _dtype_name(t: Tensor) -> str:
    return str(t.dtype).removeprefix("torch.").capitalize().replace("Float32", "Float") \
        .replace("Float64", "Double").replace("Int64", "Long").replace("Int32", "Int")


def _check_long_target(target: Tensor) -> None:
    if target.dtype.is_floating_point or str(target.dtype) != "torch.int64":
        raise RuntimeError(f"expected scalar type Long but found {_dtype_name(target)}")


def _check_float_input(input: Tensor, kernel: str) -> None:
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_dtype_name(input)}\'')


def _frames_and_classes(input: Tensor) -> tuple[int, int]:
    """A (frames, classes) input, or a vector (one frame), or a number; refused otherwise."""
    if not ((input.ndim == 2 and input.shape[1] != 0) or (input.ndim == 1 and input.shape[0])
            or input.ndim == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    if input.ndim <= 1:
        return 1, input.shape[0] if input.ndim else 1
    return input.shape[0], input.shape[1]


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """max(0, -target (input1 - input2) + margin): target 1 wants input1 ranked higher."""
    reduction = check_reduction(legacy_reduction(size_average, reduce, reduction))
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.shape}, input2: {input2.shape}, "
                           f"target: {target.shape} ")
    loss = AddScalar.apply(-target * (input1 - input2), margin).clamp_min_(0)
    return _reduce(loss, reduction)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """input where target is 1, max(0, margin - input) where it is -1 (both where it is
    neither)."""
    reduction = check_reduction(legacy_reduction(size_average, reduce, reduction))
    zeros = input.detach().new_zeros(input.shape)
    margin_clamp = (input.detach().new_full((), margin) - input).clamp_min_(0)
    loss = where(target != 1, margin_clamp, zeros) + where(target != -1, input, zeros)
    return _reduce(loss, reduction)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """log(1 + exp(-target input)), the logistic loss of labels ±1."""
    reduction = check_reduction(legacy_reduction(size_average, reduce, reduction))
    refuse_grad_of(target, "target", "soft_margin_loss")
    shape = broadcast_shape(input.shape, target.shape)
    if shape != input.shape:
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    return SoftMarginLoss.apply(input, target.to(input.dtype), reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    """Each class's binary cross-entropy on logits, averaged over the classes."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average: bool | None = None,
                      reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The multi-class hinge loss: Σ over the other classes of max(0, margin - x[y] + x[d])^p
    (times weight[y]), divided by the number of classes."""
    reduction = check_reduction(legacy_reduction(size_average, reduce, reduction))
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    frames, classes = _frames_and_classes(input)
    if target.ndim > 1 or target.numel() != frames:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to "
                           "the number of input samples (batch size). Expected target size "
                           f"[{frames}], but got {list(target.shape)}. Input has shape "
                           f"{list(input.shape)}.")
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got "
                           f"{list(weight.shape)}")
    _check_long_target(target)
    _check_float_input(input, "multi_margin_loss_cpu_kernel")
    labels = target._data
    if ((labels < 0) | (labels >= classes)).any():
        raise RuntimeError("target out of range")
    refuse_grad_of(weight, "weight", "multi_margin_loss")
    return MultiMarginLoss.apply(input, target, weight, p, margin, reduction, target.ndim > 0)


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                           reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The multi-label hinge loss: for each target class j (a row's targets end at its first
    -1) and each class d not a target, max(0, 1 - x[j] + x[d]), divided by the number of
    classes."""
    reduction = check_reduction(legacy_reduction(size_average, reduce, reduction))
    frames, classes = _frames_and_classes(input)
    if input.ndim <= 1:
        fits = target.ndim <= 1 and target.numel() == classes
    else:
        fits = target.ndim == 2 and tuple(target.shape) == (frames, classes)
    if not fits:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    _check_long_target(target)
    _check_float_input(input, "multilabel_margin_loss_forward_out_frame")
    labels = target._data
    if labels.size and (labels.min() < -1 or labels.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    return MultilabelMarginLoss.apply(input, target, reduction, target.ndim > 1)


class _PNorm(VectorNorm):
    """at::norm(x, p, dim), which PyTorch's C++ losses call: linalg.vector_norm's values and
    gradients under the older op's name."""
    node_name = "NormBackward1"


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """The p-norm of x1 - x2 + eps along the last dimension."""
    innermost = max(x1.ndim, x2.ndim) - 1
    difference = AddScalar.apply(x1 - x2, eps)
    if innermost < 0:  # two numbers: the norm of the one difference
        return _PNorm.apply(difference, float(p), None, keepdim)
    return _PNorm.apply(difference, float(p), (innermost,), keepdim)


def _check_triplet(anchor: Tensor, positive: Tensor, negative: Tensor) -> None:
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {anchor.ndim}D, positive "
                           f"{positive.ndim}D, and negative {negative.ndim}D inputs")


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                        p: float = 2, eps: float = 1e-6, swap: bool = False,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """max(0, d(anchor, positive) - d(anchor, negative) + margin), d the pairwise distance."""
    reduction = check_reduction(legacy_reduction(size_average, reduce, reduction))
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet(anchor, positive, negative)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:  # the positive closer to the negative than the anchor is: measure from it
        dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce((AddScalar.apply(dist_pos, margin) - dist_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Callable | None = None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """triplet_margin_loss with any distance (pairwise_distance by default)."""
    check_reduction(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet(anchor, positive, negative)
    distance = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = minimum(dist_neg, distance(positive, negative))
    return _reduce((margin + dist_pos - dist_neg).clamp_min(0), reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: bool | None = None, eps: float = 1e-8,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of target under Poisson(input) (Poisson(exp(input)) with
    log_input), without the log(target!) term unless full (Stirling's approximation of it)."""
    reduction = check_reduction(legacy_reduction(size_average, reduce, reduction))
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * AddScalar.apply(input, eps).log()
    if full:
        stirling = (target * target.log() - target
                    + MulScalar.apply(MulScalar.apply(target, 2 * math.pi).log(), 0.5))
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of target under Normal(input, var), without the constant
    log(2π)/2 unless full; var is clamped to at least eps (its gradient flows through)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * input.detach().new_ones(input.shape)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:  # one variance per row of the last dimension
            var = var.unsqueeze(-1)
        elif not (input.ndim == var.ndim
                  and sum(y for x, y in zip(input.shape, var.shape) if x != y) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with _grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


__all__ = ["gaussian_nll_loss", "hinge_embedding_loss", "margin_ranking_loss",
           "multi_margin_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss",
           "pairwise_distance", "poisson_nll_loss", "soft_margin_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss"]
