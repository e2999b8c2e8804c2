"""Normalisation layers: LayerNorm (over each sample's last dimensions), BatchNorm1d/2d
(over the batch, per channel, with running statistics for eval mode) and InstanceNorm1d/2d
(per sample and channel, PyTorch's batch norm of the input viewed as one batch of N·C
channels), as in torch.nn.

Both are one Function, as PyTorch's native kernels are (grad_fn NativeLayerNormBackward0,
NativeBatchNormBackward0): normalise x to x̂ = (x - mean) · rstd, then scale by weight and shift
by bias. Their backwards are ops too (_norm_backward.py), with PyTorch's double backward
formulas. LayerNorm's statistics are computed in float64 and rounded once, which PyTorch's own
order can round otherwise in the last bit; BatchNorm's are PyTorch's CPU kernel's, step by step
(_batch_statistics), and so are its outputs."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _grad_mode
from ..autograd.function import Function
from ..creation import ones, tensor, zeros
from ..fidelity import fma
from ..fidelity.ranges import fma64
from ..tensor import Tensor, tensor_of
from ._norm_backward import batch_norm_gradients, layer_norm_gradients
from .module import Module
from .parameter import Parameter


def _layer_affine(x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight: Any, bias: Any
                  ) -> np.ndarray:
    """(x · rstd - mean · rstd) · weight + bias, rounded step by step as PyTorch's kernel."""
    out = x * rstd + (-mean * rstd)
    if weight is not None:
        out = out * weight._data
    if bias is not None:
        out = out + bias._data
    return out


def _fused(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once, in a's dtype (the FMA the compiler makes of PyTorch's kernels)."""
    return fma64(a, b, c) if a.dtype == np.float64 else fma(a, b, c).astype(a.dtype)


def _batch_affine(x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight: Any, bias: Any
                  ) -> np.ndarray:
    """x · alpha + beta, alpha = rstd · weight and beta = bias - mean · alpha per channel,
    each of the two multiply-adds rounded once, as PyTorch's compiled kernel does them."""
    dtype = x.dtype.type
    alpha = rstd if weight is None else rstd * weight
    beta = _fused(-mean, alpha, np.zeros_like(alpha) if bias is None else bias.astype(x.dtype))
    shape = np.broadcast_shapes(x.shape, alpha.shape)
    return _fused(np.broadcast_to(x, shape), np.broadcast_to(alpha.astype(dtype), shape),
                  np.broadcast_to(beta.astype(dtype), shape)).reshape(shape)


def _batch_statistics(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each channel's mean and sum of squared differences from it (channels along dim 1), in
    x's dtype, added up as PyTorch's CPU kernel adds them on one thread. With one value per
    channel and sample (BatchNorm1d on (N, C)), it adds the samples' rows in x's dtype, takes
    the mean of that sum in double, and adds each row's squared difference with one rounding
    (an FMA); otherwise, channel by channel, the values in double, then the squares of the
    differences (in x's dtype) in double."""
    channels = x.shape[1]
    count = x.size // channels
    if count == x.shape[0]:  # (N, C), or (N, C, 1, ...): PyTorch's channels-last kernel
        rows = x.reshape(count, channels)
        # from +0.0 and row after row (numpy's add.accumulate adds in order)
        total = np.add.accumulate(np.concatenate((np.zeros((1, channels), x.dtype), rows)))[-1]
        mean = (total.astype(np.float64) / count).astype(x.dtype)
        differences = rows - mean
        squares = np.zeros(channels, x.dtype)
        if x.dtype == np.float32:  # a float32 square is exact in double: only the add rounds
            for square in differences.astype(np.float64) ** 2:  # added in double, rounded
                np.add(square, squares, out=squares, dtype=np.float64, casting="unsafe")
            return mean, squares
        for difference in differences:
            squares = _fused(difference, difference, squares)
        return mean, squares
    values = np.moveaxis(x, 1, 0).reshape(channels, count)  # sample by sample, then positions
    mean = (np.cumsum(values.astype(np.float64), axis=1)[:, -1] / count).astype(x.dtype)
    difference = values - mean[:, None]
    squares = np.cumsum((difference * difference).astype(np.float64), axis=1)[:, -1]
    return mean, squares.astype(x.dtype)


class LayerNormFunction(Function):
    """Normalise over the last dims: d x as in _normalised_backward, d weight = Σ g·x̂,
    d bias = Σ g (over the other dims)"""
    node_name = "NativeLayerNormBackward0"
    optional_tensors = (1, 2)  # weight and bias

    @staticmethod
    def forward(ctx, x, weight, bias, dims, eps):
        wide = x._data.astype(np.float64)
        mean = wide.mean(axis=dims, keepdims=True)
        rstd = 1 / np.sqrt(np.maximum(wide.var(axis=dims, keepdims=True), 0) + eps)
        mean, rstd = mean.astype(x._data.dtype), rstd.astype(x._data.dtype)
        ctx.save_for_backward(x, weight)
        ctx.mean, ctx.rstd, ctx.dims = tensor_of(mean), tensor_of(rstd), dims
        ctx.bias = bias  # (only an edge of the double backward's node, as PyTorch's)
        return tensor_of(_layer_affine(x._data, mean, rstd, weight, bias))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        return (*layer_norm_gradients(grad, x, ctx.mean, ctx.rstd, weight, ctx.bias, ctx.dims,
                                      ctx.needs_input_grad[:3]), None, None)


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape):]) != shape or len(shape) > input.ndim:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{list(input.shape)}")
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    return LayerNormFunction.apply(input, weight, bias, dims, eps)


class BatchNormFunction(Function):
    """Normalise each channel over the batch (and positions): in training with the batch's
    statistics (d x as in _normalised_backward), in eval with the running ones (d x = g·w·rstd)"""
    node_name = "NativeBatchNormBackward0"
    optional_tensors = (1, 2)  # weight and bias

    @staticmethod
    def forward(ctx, x, weight, bias, statistics, dims, training):
        mean, rstd, eps = statistics  # in a tuple: no edges (PyTorch's node has three)
        ctx.save_for_backward(x, weight)
        ctx.mean, ctx.rstd, ctx.dims, ctx.training = mean, rstd, dims, training
        channels = mean.shape  # (1, C, 1, ...): weight and bias broadcast along the channels
        return tensor_of(_batch_affine(x._data, mean._data, rstd._data,
                                    None if weight is None else weight._data.reshape(channels),
                                    None if bias is None else bias._data.reshape(channels)))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        return (*batch_norm_gradients(grad, x, weight, ctx.mean, ctx.rstd, ctx.dims, ctx.training,
                                      ctx.needs_input_grad[:3]), None, None, None)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    """Channels along dim 1. Training also moves the running statistics towards the batch's
    (momentum), with the unbiased variance, as PyTorch does."""
    dims = (0, *range(2, input.ndim))
    shape = [1, -1] + [1] * (input.ndim - 2)
    count = input.numel() // (input.shape[1] if input.ndim > 1 else 1)
    if training and count <= 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{input.shape}")
    dtype = input._data.dtype
    if training:  # PyTorch's steps: _batch_statistics, then in double, rounded to the dtype
        mean, squares = _batch_statistics(input._data)
        var = squares / dtype.type(count)
        rstd = (1 / np.sqrt(var.astype(np.float64) + eps)).astype(dtype)
        if running_mean is not None:  # in the running statistics' dtype, as PyTorch's
            kept, moved = running_mean._data.dtype.type(1 - momentum), dtype.type(momentum)
            unbiased = squares / dtype.type(count - 1)  # kernel
            kept_var = kept * running_var._data  # float32 code fuses the variance's last
            with _grad_mode.no_grad():  # multiply-add, float64 code does not (measured)
                running_mean.copy_(tensor_of(moved * mean + kept * running_mean._data))
                running_var.copy_(tensor_of(moved * unbiased + kept_var if dtype == np.float64
                                         else _fused(np.full_like(unbiased, moved), unbiased,
                                                     kept_var)))
    else:  # the running statistics, in the dtype
        mean = running_mean._data.astype(dtype)
        rstd = 1 / np.sqrt(running_var._data.astype(dtype) + dtype.type(eps))
    rstd = np.asarray(rstd, dtype).reshape(shape)
    mean = tensor_of(np.asarray(mean, dtype).reshape(shape))
    return BatchNormFunction.apply(input, weight, bias, (mean, tensor_of(rstd), eps), dims,
                                   training)


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True, momentum: float = 0.1,
                  eps: float = 1e-05) -> Tensor:
    """Each sample's channels normalised over their positions: batch_norm of the input viewed
    as (1, N·C, ...), weight and bias repeated per sample, viewed back (grad_fn ViewBackward0)."""
    if not use_input_stats or running_mean is not None:
        raise NotImplementedError("minigrad is a subset of PyTorch: instance_norm with running "
                                  "statistics is not implemented")
    n, c = input.shape[:2]
    as_batch = input.contiguous().view(1, n * c, *input.shape[2:])
    out = batch_norm(as_batch, None, None, None if weight is None else weight.repeat(n),
                     None if bias is None else bias.repeat(n), True, momentum, eps)
    return out.view(input.shape)


class LayerNorm(Module):
    """Normalises each sample over its last dimensions (`normalized_shape`), then scales and
    shifts by learned weight (ones) and bias (zeros)."""

    def __init__(self, normalized_shape: Any, eps: float = 1e-05,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
        self.normalized_shape, self.eps = tuple(shape), eps
        self.elementwise_affine = elementwise_affine
        self.register_parameter("weight", Parameter(ones(self.normalized_shape, dtype=dtype))
                                if elementwise_affine else None)
        self.register_parameter("bias", Parameter(zeros(self.normalized_shape, dtype=dtype))
                                if elementwise_affine and bias else None)

    def forward(self, input: Tensor) -> Tensor:
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine="
                f"{self.elementwise_affine}, bias={self.bias is not None}")


class _BatchNorm(Module):
    """Normalises each channel over the batch while training (and updates the running
    statistics); in eval mode uses the running statistics."""

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.register_parameter("weight", Parameter(ones(num_features, dtype=dtype))
                                if affine else None)
        self.register_parameter("bias", Parameter(zeros(num_features, dtype=dtype))
                                if affine and bias else None)
        stats = track_running_stats
        self.register_buffer("running_mean", zeros(num_features, dtype=dtype) if stats else None)
        self.register_buffer("running_var", ones(num_features, dtype=dtype) if stats else None)
        self.register_buffer("num_batches_tracked", tensor(0) if stats else None)

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch = self.training or self.running_mean is None
        track = not self.training or self.track_running_stats
        return batch_norm(input, self.running_mean if track else None,
                          self.running_var if track else None, self.weight, self.bias,
                          use_batch, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """For (N, C) or (N, C, L) inputs."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """For (N, C, H, W) inputs."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """For (N, C, D, H, W) inputs."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class _InstanceNorm(_BatchNorm):
    """Normalises each sample's channels over their positions (see `instance_norm`); by
    default without weights or running statistics."""

    spatial: int

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        if track_running_stats:
            raise NotImplementedError("minigrad is a subset of PyTorch: InstanceNorm's "
                                      "track_running_stats is not implemented")
        super().__init__(num_features, eps, momentum, affine, False, dtype=dtype, bias=bias)

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self.spatial + 1, self.spatial + 2):
            raise ValueError(f"expected {self.spatial + 1}D or {self.spatial + 2}D input (got "
                             f"{input.dim()}D input)")
        unbatched = input.dim() == self.spatial + 1
        batch = input.unsqueeze(0) if unbatched else input
        if batch.shape[1] != self.num_features and self.affine:
            raise ValueError(f"expected input's size at dim={input.dim() - self.spatial - 1} to "
                             f"match num_features ({self.num_features}), but got: "
                             f"{batch.shape[1]}.")
        out = instance_norm(batch, None, None, self.weight, self.bias, True, self.momentum,
                            self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """For (N, C, L) inputs (or (C, L))."""

    spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """For (N, C, H, W) inputs (or (C, H, W))."""

    spatial = 2
