"""torch.cdist: the p-norm distance between each row of x1 and each row of x2. As PyTorch: for
p = 2 with more than 25 rows on either side, through one matrix product (|a|² - 2 a·b + |b|²,
EuclideanDistBackward0); otherwise pair by pair, the differences added one feature after the
other as PyTorch's kernel does (CdistBackward0, whose backward is not differentiable again)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..fidelity.products import matmul_like_torch
from ..tensor import Tensor, tensor_of
from .operands import check_broadcast


def _pairwise(d: np.ndarray, p: float) -> np.ndarray:
    """The p-norm over the last axis of the differences d (..., r1, r2, m), feature by feature."""
    a = np.abs(d)
    if p == 0:
        return (a != 0).sum(-1).astype(d.dtype)
    if p == np.inf:
        return a.max(-1, initial=0).astype(d.dtype)
    acc = np.zeros(d.shape[:-1], d.dtype)
    for x in range(d.shape[-1]):
        acc = acc + (a[..., x] if p == 1 else a[..., x] * a[..., x] if p == 2
                     else np.power(a[..., x], d.dtype.type(p)))
    if p == 1:
        return acc
    if p == 2:
        return np.sqrt(acc)
    return np.power(acc, d.dtype.type(1 / p))


class Cdist(Function):
    node_name = "CdistBackward0"

    @staticmethod
    def forward(ctx, x1, x2, p):
        ctx.p = p
        diff = x1._data[..., :, None, :] - x2._data[..., None, :, :]
        out = tensor_of(_pairwise(diff, p))
        ctx.save_for_backward(x1, x2, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x1, x2, dist = ctx.saved_tensors
        g, d, r = grad._data[..., None], x1._data[..., :, None, :] - x2._data[..., None, :, :], \
            dist._data[..., None]
        p = ctx.p
        with np.errstate(divide="ignore", invalid="ignore"):
            if p == 0:
                each = np.zeros_like(d)
            elif p == 1:
                each = g * np.sign(d)
            elif p == 2:
                each = np.where(r == 0, 0, g * d / r)
            elif p == np.inf:
                each = g * np.sign(d) * (np.abs(d) == r)
            else:
                each = np.where(r == 0, 0, d * np.power(np.abs(d), p - 2) * g
                                / np.power(r, p - 1))
        one = np.zeros(d.shape[:-3] + (d.shape[-3], d.shape[-1]), d.dtype)
        for j in range(d.shape[-2]):  # added pair after pair, as PyTorch's kernel does
            one = one + each[..., :, j, :]
        other = np.zeros(d.shape[:-3] + (d.shape[-2], d.shape[-1]), d.dtype)
        for i in range(d.shape[-3]):
            other = other - each[..., i, :, :]
        return tensor_of(one), tensor_of(other), None


class EuclideanDist(Function):
    """sqrt(max(|a|² - 2 a·b + |b|², 1e-30)) from one matrix product:
    d x1 = x1 sum(r) - r @ x2, d x2 = x2 sum(r) - r^T @ x1, for r = g / dist (0 where it is 0)"""
    node_name = "EuclideanDistBackward0"

    @staticmethod
    def forward(ctx, x1, x2):
        a, b = x1._data, x2._data
        a_norm = (a * a).sum(-1, keepdims=True)
        b_norm = (b * b).sum(-1, keepdims=True)
        left = np.concatenate([a * a.dtype.type(-2), a_norm, np.ones_like(a_norm)], -1)
        right = np.concatenate([b, np.ones_like(b_norm), b_norm], -1)
        squared = matmul_like_torch(left, np.swapaxes(right, -1, -2))
        out = tensor_of(np.sqrt(np.maximum(squared, a.dtype.type(1e-30))).astype(a.dtype))
        ctx.save_for_backward(x1, x2, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x1, x2, dist = ctx.saved_tensors
        ratio = (grad / dist).masked_fill(dist == 0, 0)
        return (x1 * ratio.sum(-1, True) - ratio.matmul(x2),
                x2 * ratio.sum(-2, False).unsqueeze(-1) - ratio.mT.matmul(x1))


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: Any = None) -> Tensor:
    for name, x in (("X1", x1), ("X2", x2)):
        if x.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.ndim}D")
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{x.dtype.scalar_name}")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype.scalar_name} but found "
                           f"{x2.dtype.scalar_name}")
    check_broadcast(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
    batch = tuple(np.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    if batch != tuple(x1.shape[:-2]):
        x1 = x1.expand(*batch, *x1.shape[-2:])
    if batch != tuple(x2.shape[:-2]):
        x2 = x2.expand(*batch, *x2.shape[-2:])
    mode = {None: 0, "use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
            "donot_use_mm_for_euclid_dist": 2}[compute_mode]
    if (x1.numel() and x2.numel() and p == 2
            and (mode == 1 or (mode == 0 and (x1.shape[-2] > 25 or x2.shape[-2] > 25)))):
        out = EuclideanDist.apply(x1, x2)
        return out.view(out.shape)  # (PyTorch views it to the output's shape: ViewBackward0)
    return Cdist.apply(x1, x2, float(p))
