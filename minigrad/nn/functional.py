"""minigrad.nn.functional: torch.nn.functional's activations, linear layer, losses,
convolutions, pooling and padding.

The Functions they use live in `_ops.py`, `_conv.py`, `_pool.py`, `_pad.py` and the like (the
rarer losses in `_margin_losses.py`), and carry
PyTorch's grad_fn names (AddmmBackward0, LeakyReluBackward0, LogSoftmaxBackward0,
NllLossBackward0, MseLossBackward0, ConvolutionBackward0, MaxPool2DWithIndicesBackward0, ...)."""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _grad_mode
from .._dtype import dtype as _dtype_cls
from .._dtype import int64
from ..ops import statistics
from ..ops.pointwise import AddScalar, DivScalar, MulScalar, SubScalar
from ..ops.pointwise_more import Xlogy
from ..ops.selection import where
from ..ops.shape import SqueezeDimInPlace, _dims
from ..tensor import Tensor, tensor_of
from ._adaptive_max_pool import adaptive_max_pool1d, adaptive_max_pool2d
from ._bce import BinaryCrossEntropy, BinaryCrossEntropyWithLogits
from ._conv import conv_transpose, convolution
from ._ctc import ctc_loss
from ._loss_arguments import broadcast_shape as _broadcast_shape
from ._loss_arguments import check_reduction as _check_reduction
from ._loss_arguments import legacy_reduction as _legacy_reduction
from ._loss_arguments import refuse_grad_of as _refuse_grad_of
from ._margin_losses import (gaussian_nll_loss, hinge_embedding_loss, margin_ranking_loss,
                             multi_margin_loss, multilabel_margin_loss,
                             multilabel_soft_margin_loss, pairwise_distance, poisson_nll_loss,
                             soft_margin_loss, triplet_margin_loss,
                             triplet_margin_with_distance_loss)
from ._ops import Addmm, LeakyRelu, MseLoss, NllLoss, NllLoss2d, PreluKernel
from ._pad import pad
from ._pool import adaptive_avg_pool2d, avg_pool2d, max_pool2d
from ._pool1d import adaptive_avg_pool1d, avg_pool1d
from ._smooth_losses import HuberLoss, SmoothL1Loss
from ._upsample import interpolate, upsample
from .pixelshuffle import pixel_shuffle, pixel_unshuffle
from .activations import elu, gelu, hardtanh, logsigmoid, relu6, silu, softplus
from .dropout import dropout, dropout1d, dropout2d
from .embedding import embedding
from .normalization import batch_norm, instance_norm, layer_norm

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "avg_pool1d",
    "avg_pool2d",
    "batch_norm",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "cross_entropy",
    "ctc_loss",
    "dropout",
    "dropout1d",
    "dropout2d",
    "elu",
    "embedding",
    "gaussian_nll_loss",
    "gelu",
    "hardtanh",
    "hinge_embedding_loss",
    "huber_loss",
    "instance_norm",
    "interpolate",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
    "linear_cross_entropy",
    "log_softmax",
    "logsigmoid",
    "margin_ranking_loss",
    "max_pool2d",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "relu",
    "relu6",
    "sigmoid",
    "silu",
    "soft_margin_loss",
    "softmax",
    "softplus",
    "tanh",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "upsample",
]


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return input.relu_() if inplace else input.relu()


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, else negative_slope * x: unlike relu, a negative input still passes
    a (small) gradient."""
    if inplace:
        raise NotImplementedError("minigrad is a subset of PyTorch: leaky_relu(inplace=True) "
                                  "is not implemented; use inplace=False")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"leaky_relu_cpu" not implemented for '
                                  f"'{input.dtype.tensor_type.replace('Tensor', '')}'")
    return LeakyRelu.apply(input, negative_slope)


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """leaky_relu with a learned slope: x where x > 0, else weight * x, one weight for all
    channels or one per channel (dimension 1). PyTorch's checks, then its reshape of the weight
    to broadcast (ViewBackward0) when the dimensions differ."""
    if not isinstance(weight, Tensor):
        raise TypeError(f"prelu(): argument 'weight' (position 2) must be Tensor, not "
                        f"{type(weight).__name__}")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{input.dtype.scalar_name} and {weight.dtype.scalar_name}")
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"prelu_cpu" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return PreluKernel.apply(input, weight)


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias. As in PyTorch, a 2-D input with a bias is one fused `addmm`
    (grad_fn AddmmBackward0); other inputs are flattened to 2-D around it."""
    if input.ndim == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are 0D "
                           f"and {weight.ndim}D")
    if bias is None and input.ndim == 1:  # matmul's way: a row, mm, the row squeezed in place
        return SqueezeDimInPlace.apply(input.unsqueeze(0).mm(weight.t()), (0,))
    if bias is None:
        return input.matmul(weight.t())
    if input.ndim == 2:
        return Addmm.apply(bias, input, weight.t())
    rows = input.reshape(-1, input.shape[-1])
    return Addmm.apply(bias, rows, weight.t()).reshape(*input.shape[:-1], weight.shape[0])


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """Slides each filter of `weight` (out_channels, in_channels / groups, width) along the
    input (batch, in_channels, length): a sum of products per position, plus `bias`. padding
    is a number, or 'valid' (none) or 'same' (the output as long as the input)."""
    return convolution(input, weight, bias, stride, padding, dilation, groups, dims=1)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """Slides each filter of `weight` (out_channels, in_channels / groups, height, width) over
    the input (batch, in_channels, height, width): a sum of products per position, plus
    `bias`. padding is a number or pair, or 'valid' (none) or 'same' (the input's size)."""
    return convolution(input, weight, bias, stride, padding, dilation, groups, dims=2)


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """conv2d with one more spatial dimension: (batch, in_channels, depth, height, width)."""
    return convolution(input, weight, bias, stride, padding, dilation, groups, dims=3)


def _softmax_dim(name: str, ndim: int, dim: int | None) -> int:
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the "
                      "call to include dim=X as an argument.", UserWarning, stacklevel=3)
        dim = 0 if ndim in (0, 1, 3) else 1
    return _dims(dim, ndim)[0] if ndim else 0


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: _dtype_cls | None = None) -> Tensor:
    """exp(x) / sum(exp(x)) along `dim`, computed without overflow."""
    input = input if dtype is None else input.to(dtype)
    return statistics.softmax(input, _softmax_dim("softmax", input.ndim, dim))


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: _dtype_cls | None = None) -> Tensor:
    """x - log(sum(exp(x))) along `dim`, with the max subtracted first so exp cannot overflow."""
    input = input if dtype is None else input.to(dtype)
    return statistics.log_softmax(input, _softmax_dim("log_softmax", input.ndim, dim))


def _warn_if_sizes_differ(input: Tensor, target: Tensor) -> bool:
    """PyTorch's warning for a target that broadcasts against the input (shown at the line
    that called the loss); True when the sizes differ."""
    if target.shape == input.shape:
        return False
    warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                  f"size ({input.shape}). This will likely lead to incorrect results due to "
                  "broadcasting. Please ensure they have the same size.", UserWarning,
                  stacklevel=3)
    return True


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The mean (or sum, or each) of the squared differences."""
    if _warn_if_sizes_differ(input, target):
        shape = _broadcast_shape(input.shape, target.shape)
        # as torch.broadcast_tensors: a tensor already of that shape is kept, not expanded
        input, target = (t if t.shape == shape else t.expand(shape) for t in (input, target))
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return MseLoss.apply(input, target, reduction)


def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
            reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The mean (or sum, or each) of the absolute differences, |input - target|."""
    _warn_if_sizes_differ(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    loss = (input - target).abs()
    return loss if reduction == "none" else loss.sum() if reduction == "sum" else loss.mean()


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """|input - target|, made quadratic (z²/2beta) below beta; beta=0 is l1_loss."""
    return _smooth_loss(input, target, (size_average, reduce, reduction), beta, SmoothL1Loss)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: None = None) -> Tensor:
    """z²/2 below delta, delta·(z - delta/2) above, for z = |input - target|."""
    if weight is not None:
        raise NotImplementedError("minigrad is a subset of PyTorch: huber_loss(weight=...) is "
                                  "not implemented")
    return _smooth_loss(input, target, (None, None, reduction), delta, HuberLoss)


def _smooth_loss(input: Tensor, target: Tensor, reductions: tuple, threshold: float,
                 loss: Any) -> Tensor:
    """reductions: size_average, reduce and reduction, as given."""
    if _warn_if_sizes_differ(input, target):
        shape = _broadcast_shape(input.shape, target.shape)
        input, target = (t if t.shape == shape else t.expand(shape) for t in (input, target))
    reduction = _legacy_reduction(*reductions, stacklevel=4)
    _check_reduction(reduction)
    if loss is SmoothL1Loss and threshold == 0.0:  # PyTorch hands this one to l1_loss
        return l1_loss(input, target, reduction=reduction)
    if loss is SmoothL1Loss and threshold < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if loss is HuberLoss and threshold <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return loss.apply(input, target, reduction, threshold)


KL_DIV_MEAN_WARNING = (
    "reduction: 'mean' divides the total loss by both the batch size and the support size."
    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
    "'mean' will be changed to behave the same as 'batchmean' in the next major release.")


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,
           reduce: bool | None = None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """KL(target || exp(input)), element by element; input holds log-probabilities.

    target holds probabilities (log-probabilities when log_target); composed as PyTorch
    composes it: target·log(target) - target·input."""
    if size_average is not None or reduce is not None:  # then no warning and no batchmean
        reduction = _legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn(KL_DIV_MEAN_WARNING, UserWarning, stacklevel=2)
    summed = "sum" if reduction == "batchmean" else reduction
    _check_reduction(summed)
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):  # bool too
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        losses = target.exp() * (target - input)
    else:
        product = target * input  # made first: ATen's kl_div evaluates this operand first
        losses = Xlogy.apply(target, target) - product
    reduced = (losses if summed == "none" else losses.sum() if summed == "sum"
               else losses.mean())
    if reduction == "batchmean" and input.ndim:
        reduced = reduced / input.shape[0]
    return reduced


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """Binary cross-entropy on probabilities (a sigmoid's output); on logits,
    binary_cross_entropy_with_logits is the stable one."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    _check_reduction(reduction)
    _refuse_grad_of(weight, "weight", "binary_cross_entropy")
    if weight is not None and weight.shape != input.shape:
        weight = weight.expand(input.shape)
    if target.dtype != input.dtype:  # its CPU kernel's TensorIterator wants one dtype
        raise RuntimeError(f"Found dtype {target.dtype.scalar_name} but expected "
                           f"{input.dtype.scalar_name}")
    return BinaryCrossEntropy.apply(input, target, (weight,), reduction)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None,
             reduction: str = "mean") -> Tensor:
    """The negative log-likelihood: minus the input's entry at each sample's target class.
    `input` holds log-probabilities, classes along dim 1 (dim 0 for a single sample)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if target.dtype.name not in ("int64", "uint8"):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           + target.dtype.tensor_type.replace("Tensor", ""))
    if input.ndim == 1:
        if target.ndim == 1 and target.shape[0] != 1:
            raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                             f"{target.shape[0]}")
        target = target.reshape(())
    elif input.ndim >= 2:
        if target.ndim == 0 or target.shape[0] != input.shape[0]:
            raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                             f"batch_size ({target.shape[0] if target.ndim else 0}).")
        expected = input.shape[:1] + input.shape[2:]
        if target.shape != expected:
            raise RuntimeError(f"Expected target size {list(expected)}, got {list(target.shape)}")
    if input.ndim <= 2:
        _refuse_grad_of(weight, "weight", "nll_loss_forward")
        return NllLoss.apply(input, (target, weight), reduction, ignore_index)
    _refuse_grad_of(weight, "weight", "nll_loss2d_forward")
    if input.ndim == 4:
        return NllLoss2d.apply(input, (target, weight), reduction, ignore_index)
    # other spatial shapes go through a view to (N, C, 1, H * W ...), as in PyTorch
    n, c, out_shape = input.shape[0], input.shape[1], input.shape[:1] + input.shape[2:]
    flat = input.numel() > 0
    input = input.contiguous().view(n, c, 1, -1) if flat else input.view(n, c, 0, 0)
    target = target.contiguous().view(n, 1, -1) if target.numel() else target.view(n, 0, 0)
    loss = NllLoss2d.apply(input, (target, weight), reduction, ignore_index)
    return loss.view(out_shape) if reduction == "none" else loss


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """nll_loss(log_softmax(input)): how surprised the model is by each sample's class.
    `target` holds class indices (int64), or class probabilities shaped like `input`.
    `label_smoothing` mixes each target with the uniform distribution over the classes.
    The steps (and so the grad_fns and roundings) are those of PyTorch's C++ cross_entropy."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    class_dim = 0 if input.ndim == 1 else 1
    if target.shape == input.shape:  # PyTorch takes equal shapes to mean class probabilities
        return _cross_entropy_of_probabilities(input, target, weight, reduction, ignore_index,
                                               label_smoothing, class_dim)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index,
                                       label_smoothing, class_dim)
    return nll_loss(log_softmax(input, class_dim), target, weight, ignore_index=ignore_index,
                    reduction=reduction)


# PyTorch's chunked path (`options=`, which saves memory on a large vocabulary) is not in minigrad
_ERR_LINEAR_CE_OPTIONS = ("linear_cross_entropy: minigrad has only PyTorch's reference path: "
                          "pass options=None (LinearCrossEntropyOptions, the chunked path, is "
                          "not in minigrad)")


def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, *,
                         linear_bias: Tensor | None = None, weight: Tensor | None = None,
                         reduction: str = "mean", ignore_index: int | None = None,
                         label_smoothing: float = 0.0, options: None = None) -> Tensor:
    """cross_entropy(linear(input, linear_weight, linear_bias), target, ...), as PyTorch's
    reference path (options=None) computes it; a weight of shape (C, d1, ..., dK, in_features)
    gives logits (N, C, d1, ..., dK), a K-dimensional loss."""
    if options is not None:
        raise NotImplementedError(_ERR_LINEAR_CE_OPTIONS)
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError("expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.dim()}")
    batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions "
                           f"(in_features), got {input.shape[-1]} and "
                           f"{linear_weight.shape[-1]}, respectively")
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and not batches:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} "
            f"requires batched input, (N, {in_features}), got unbatched input with shape "
            f"{tuple(input.shape)}")
    logits_shape = (*batches, classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    if out_features:
        rows = math.prod(out_features, start=classes)
        linear_weight = linear_weight.reshape((rows, in_features))
        linear_bias = None if linear_bias is None else linear_bias.reshape(rows)
    logits = linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return cross_entropy(logits, target, weight=weight, reduction=reduction,
                         ignore_index=-100 if ignore_index is None else ignore_index,
                         label_smoothing=label_smoothing)


def _check_label_smoothing(label_smoothing: float) -> None:
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")


def _class_weights(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """The class weights shaped to broadcast along the class dimension."""
    return weight.view([1] * class_dim + [-1] + [1] * (ndim - class_dim - 1)) if ndim > 1 \
        else weight


def _cross_entropy_of_probabilities(input: Tensor, target: Tensor, weight: Tensor | None,
                                    reduction: str, ignore_index: int, label_smoothing: float,
                                    class_dim: int) -> Tensor:
    if not target.dtype.is_floating_point:
        raise RuntimeError("Expected floating point type for target with class probabilities, "
                           "got " + target.dtype.tensor_type.replace("Tensor", ""))
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    n_classes = input.shape[class_dim]
    if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{n_classes} classes or no classes but got weight tensor of shape: "
                           f"{list(weight.shape)}")
    logp = log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        target = AddScalar.apply(MulScalar.apply(target, 1 - label_smoothing),
                                label_smoothing / n_classes)
    terms = logp * target
    if weight is not None:
        terms = terms * _class_weights(weight, input.ndim, class_dim)
    if reduction == "none":
        return -terms.sum(class_dim)
    if reduction == "sum":
        return -terms.sum()
    if input.numel() == 0:
        return -terms.sum().fill_(float("nan"))
    return DivScalar.apply(-terms.sum(), input.numel() // n_classes)  # samples, not classes


def _cross_entropy_smoothed(input: Tensor, target: Tensor, weight: Tensor | None,
                            reduction: str, ignore_index: int, label_smoothing: float,
                            class_dim: int) -> Tensor:
    """Class indices with label smoothing: (1 - s) * nll_loss + s / C * (minus the sum of the
    log-probabilities over the classes, weighted), ignored samples left out."""
    logp = log_softmax(input, class_dim)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    n_classes = input.shape[class_dim]
    if weight is not None:
        smooth = -(logp * _class_weights(weight, input.ndim, class_dim)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    ignored = target == ignore_index
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "mean":
        if weight is not None:
            smooth = smooth.sum() / weight.gather(0, target.masked_select(~ignored).flatten()).sum()
        else:
            smooth = smooth.sum() / (~ignored).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (MulScalar.apply(nll, 1 - label_smoothing)
            + MulScalar.apply(smooth, label_smoothing / n_classes))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average: bool | None = None, reduce: bool | None = None,
                                     reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross-entropy of sigmoid(input) against target (probabilities), in one stable op
    (grad_fn BinaryCrossEntropyWithLogitsBackward0)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    for argument, name in ((weight, "weight"), (pos_weight, "pos_weight")):
        _refuse_grad_of(argument, name, "binary_cross_entropy_with_logits")
    return BinaryCrossEntropyWithLogits.apply(input, target, (weight, pos_weight), reduction)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Each index i becomes a row of num_classes zeros with a 1 at i (int64, as PyTorch)."""
    if tensor.dtype is not int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    indices = tensor._data
    if indices.size and indices.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(indices.max()) + 1 if indices.size else 0
    elif indices.size and indices.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return tensor_of((indices[..., None] == np.arange(num_classes)).astype(np.int64))


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    return conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                          dilation, 1)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    return conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                          dilation, 2)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """x1·x2 / (|x1| |x2|) along dim, each norm at least eps; PyTorch divides each by its norm
    first, and so does minigrad (grad_fn SumBackward1). Each norm is clamped in a copy
    (CloneBackward0, as PyTorch's graph has): the norm's node saves its result."""
    if x1.shape != x2.shape:  # PyTorch expands both (expand_outplace), even one of full shape
        shape = _broadcast_shape(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    norms = [x.norm(2, dim=dim, keepdim=True).clone() for x in (x1, x2)]
    with _grad_mode.no_grad():
        for norm in norms:
            norm.clamp_min_(eps)
    return ((x1 / norms[0]) * (x2 / norms[1])).sum(dim)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1 (0
    elsewhere), as PyTorch composes it: its squared lengths get 1e-12 each before the root."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if target.ndim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    rows = 2 if target.ndim == 1 else 1
    if input1.ndim != rows or input2.ndim != rows:
        raise RuntimeError(f"{target.ndim}D target tensor expects {rows}D input tensors, but "
                           f"found inputs with sizes {list(input1.shape)} and "
                           f"{list(input2.shape)}.")
    _check_reduction(reduction)
    dim = target.ndim
    products = (input1 * input2).sum(dim)
    lengths = (AddScalar.apply((input1 * input1).sum(dim), 1e-12)
               * AddScalar.apply((input2 * input2).sum(dim), 1e-12))
    cos = products / lengths.sqrt_()
    zeros = cos.detach().new_zeros(cos.shape)
    ones = cos.detach().new_ones(cos.shape)  # C++'s `1 - cos`: ones, less cos (SubBackward0)
    loss = (where(target == 1, ones - cos, zeros)
            + where(target == -1, SubScalar.apply(cos, margin).clamp_min_(0), zeros))
    return loss if reduction == "none" else loss.sum() if reduction == "sum" else loss.mean()


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: None = None) -> Tensor:
    """input divided by its p-norm along dim (at least eps), as PyTorch composes it."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


from .._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn.functional", __name__)
