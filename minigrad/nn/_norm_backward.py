"""The backwards of layer norm and batch norm as ops of their own, as PyTorch's: under
create_graph=True the first gradient is one node, NativeLayerNormBackwardBackward0 or
NativeBatchNormBackwardBackward0, and its own backward is derivatives.yaml's
layer_norm_double_backward or batchnorm_double_backward, step by step (the signs of the zeros
of a second derivative come from the order of those steps).

The saved mean and rstd are inputs of the node (edges, as PyTorch's), but constants: PyTorch's
statistics are not differentiable outputs, and its double backward formulas already hold their
derivatives with respect to x."""
from __future__ import annotations

from typing import Any

from .. import _grad_mode
from ..autograd.function import Function
from ..creation import ones
from ..tensor import Tensor


def normalised_backward(grad: Tensor, x: Tensor, mean: Tensor, rstd: Tensor,
                        weight: Tensor | None, dims: tuple) -> Tensor:
    """d x of (x - mean) · rstd · weight, where mean and rstd were taken over `dims`."""
    x_hat = (x - mean) * rstd
    g = grad if weight is None else grad * weight
    return rstd * (g - g.mean(dims, keepdim=True) - x_hat * (g * x_hat).mean(dims, keepdim=True))


def _first_gradients(grad: Tensor, x: Tensor, mean: Tensor, rstd: Tensor, weight: Any,
                     dims: tuple, outer: tuple, wanted: tuple) -> tuple:
    """(d x, d weight, d bias) of the affine normalisation: weight's and bias's summed over
    `outer`, x's through the statistics taken over `dims` (None where not wanted)."""
    x_hat = (x - mean) * rstd
    return (normalised_backward(grad, x, mean, rstd, weight, dims) if wanted[0] else None,
            (grad * x_hat).sum(outer) if wanted[1] else None,
            grad.sum(outer) if wanted[2] else None)


def layer_norm_gradients(grad: Tensor, x: Tensor, mean: Tensor, rstd: Tensor, weight: Any,
                         bias: Any, dims: tuple, wanted: tuple) -> tuple:
    """NativeLayerNormBackward0's three gradients: one node when a graph is being built."""
    if _grad_mode.is_grad_enabled():
        return LayerNormBackward.apply(grad, x, mean, rstd, weight, bias, dims, wanted)
    outer = tuple(range(x.ndim - len(dims)))
    return _first_gradients(grad, x, mean, rstd, weight, dims, outer, wanted)


def batch_norm_gradients(grad: Tensor, x: Tensor, weight: Any, mean: Tensor, rstd: Tensor,
                         dims: tuple, training: bool, wanted: tuple) -> tuple:
    """NativeBatchNormBackward0's three gradients (weight of the channels' shape, mean's);
    in eval mode the statistics are constants, d x = g · w · rstd."""
    if _grad_mode.is_grad_enabled():
        return BatchNormBackward.apply(grad, x, weight, mean, rstd, dims, training, wanted)
    return _batch_first(grad, x, weight, mean, rstd, dims, training, wanted)


def _batch_first(grad: Tensor, x: Tensor, weight: Any, mean: Tensor, rstd: Tensor,
                 dims: tuple, training: bool, wanted: tuple) -> tuple:
    if weight is not None:  # (C,) to broadcast along dim 1
        weight = weight.reshape(mean.shape)
    gx, gw, gb = _first_gradients(grad, x, mean, rstd, weight, dims, dims,
                                  (wanted[0] and training, *wanted[1:]))
    if wanted[0] and not training:
        gx = grad * rstd * (1 if weight is None else weight)
    return gx, gw, gb


class LayerNormBackward(Function):
    """native_layer_norm_backward: d grad, d x, d weight by layer_norm_double_backward"""
    node_name = "NativeLayerNormBackwardBackward0"
    optional_tensors = (4, 5)  # weight and bias

    @staticmethod
    def forward(ctx, grad, x, mean, rstd, weight, bias, dims, wanted):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(grad, x, weight)
        ctx.mean, ctx.rstd, ctx.dims = mean.detach(), rstd.detach(), dims
        outer = tuple(range(x.ndim - len(dims)))
        return _first_gradients(grad, x, mean, rstd, weight, dims, outer, wanted)

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, x, weight = ctx.saved_tensors
        n = 1
        for d in ctx.dims:
            n *= x.shape[d]
        m = x.numel() // n
        d_x, d_weight, d_grad = _double_backward(
            x.reshape(m, n), weight, None if weight is None else weight.reshape(1, n),
            None if ggx is None else ggx.reshape(m, n),
            None if ggw is None else ggw.reshape(1, n), None if ggb is None else ggb.reshape(1, n),
            grad.reshape(m, n), ctx.mean.reshape(m, 1), ctx.rstd.reshape(m, 1), n, True, True)
        if d_x is not None:
            d_x = d_x.reshape(x.shape)
        if d_grad is not None:
            d_grad = d_grad.expand(m, n).reshape(x.shape)
        if d_weight is not None:
            d_weight = d_weight.reshape(weight.shape)
        need = ctx.needs_input_grad
        return (d_grad if need[0] else None, d_x if need[1] else None, None, None,
                d_weight if need[4] else None, None, None, None)


class BatchNormBackward(Function):
    """native_batch_norm_backward: d grad, d x, d weight by batchnorm_double_backward"""
    node_name = "NativeBatchNormBackwardBackward0"
    optional_tensors = (2,)  # weight

    @staticmethod
    def forward(ctx, grad, x, weight, mean, rstd, dims, training, wanted):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(grad, x, weight)
        ctx.mean, ctx.rstd, ctx.dims, ctx.training = mean.detach(), rstd.detach(), dims, training
        return _batch_first(grad, x, weight, mean, rstd, dims, training, wanted)

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, x, weight = ctx.saved_tensors
        channels = ctx.mean.shape  # (1, C, 1, ...)
        count = x.numel() // x.shape[1]
        d_x, d_weight, d_grad = _double_backward(
            x, weight, None if weight is None else weight.reshape(channels),
            ggx, None if ggw is None else ggw.reshape(channels),
            None if ggb is None else ggb.reshape(channels).expand(x.shape), grad, ctx.mean,
            ctx.rstd, count, ctx.training, False)
        if d_weight is not None:
            d_weight = d_weight.reshape(weight.shape)
        need = ctx.needs_input_grad
        return (d_grad if need[0] else None, d_x if need[1] else None,
                d_weight if need[2] else None, None, None, None, None, None)


def _double_backward(x: Tensor, weight: Any, gamma: Any, ggI: Any, ggG: Any, ggB: Any,
                     gO: Tensor, mu: Tensor, rstd: Tensor, n: int, training: bool,
                     layer: bool) -> tuple:
    """PyTorch's layer_norm_double_backward (layer: x as (M, n), the statistics over dim 1)
    and batchnorm_double_backward (over all dims but 1, n values each), one formula where
    theirs are the same; gamma is weight shaped to broadcast, ggG and ggB likewise:
    (d x, d weight, d grad)."""
    def total(t: Tensor, keepdim: bool = True) -> Tensor:
        if layer:
            return t.sum(1, keepdim)
        t = t.sum(0, keepdim)  # PyTorch's sum_exclude_dim1: dim 0, then the last to 2
        for d in range(t.ndim - 1, 1 if keepdim else 0, -1):
            t = t.sum(d, keepdim)
        return t
    affine = weight is not None
    if not affine:
        gamma = ones(1, dtype=x.dtype) if layer else ones((), dtype=x.dtype)
    x_mu = x - mu
    rstd2, rstd3 = rstd.pow(2), rstd.pow(3)
    x_mu_rstd3 = x_mu * rstd3
    g_hat = gO * gamma if layer else gO  # layer norm folds gamma in first
    g_mu_sum, g_sum = total(g_hat * x_mu), total(g_hat)
    gI = None
    if ggI is not None and training:
        ggI_sum, ggI_mu_sum = total(ggI), total(ggI * x_mu)
        all_sub = ((ggI_sum * g_sum) / n - total(ggI * g_hat)
                   + (rstd2 * g_mu_sum * ggI_mu_sum) * (3.0 / n))
        gI = ((x_mu_rstd3 * all_sub) / n + (ggI_mu_sum * rstd3) / n * (g_sum / n - g_hat)
              + (g_mu_sum * rstd3) / n * (ggI_sum / n - ggI))
        if not layer:  # batch norm multiplies by gamma last
            gI = gamma * gI
    if affine and ggG is not None:
        if not training:
            term = ggG * rstd * gO
        elif layer:
            term = (gO * ggG * rstd + (rstd * total(gO * ggG)) / -n
                    + (x_mu_rstd3 * total(gO * ggG * x_mu)) / -n)
        else:
            term = ggG * (gO * rstd + (rstd * g_sum) / -n + (x_mu_rstd3 * total(gO * x_mu)) / -n)
        gI = term if gI is None else gI + term

    def first_gradient(g: Tensor, scale: Tensor) -> Tensor:  # the first backward's d x
        return (scale * rstd) / n * ((n * g) - total(g) - x_mu * rstd2 * total(g * x_mu))
    gG = None
    if affine and ggI is not None:
        if not training:
            gG = total(ggI * gO * rstd, False)
        elif layer:
            gG = (gO * first_gradient(ggI, ones((), dtype=x.dtype))).sum(0)
        else:
            gG = total(ggI * first_gradient(gO, ones((), dtype=x.dtype)), False)
    ggO = None
    if ggI is not None:
        ggO = first_gradient(ggI, gamma) if training else ggI * rstd * gamma
    if ggG is not None:
        ggO = ggG * x_mu * rstd if ggO is None else ggO + ggG * x_mu * rstd
    if ggB is not None:
        ggO = ggB if ggO is None else ggO + ggB
    return gI, gG, ggO
