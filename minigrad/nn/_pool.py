"""Pooling on numpy, as Functions with PyTorch's grad_fn names: max_pool2d (with the indices
of the elements it picked), avg_pool2d and adaptive_avg_pool2d.

Windows are strided views of the padded input (`_conv.windows`); a gradient goes back into
them with one strided add per kernel position, or, for max pooling, one bincount over the
picked indices. Each backward is a Function whose own backward is the forward pass again (or a
gather, for max pooling), so derivatives of any order work."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from ._conv import add_windows, padded, windows


@dataclass(frozen=True)
class Pooling:
    """A pooling window's size, step, padding and spacing per spatial dimension (all as
    PyTorch shows them), ceil_mode, and for averages what divides the sum."""
    kernel_size: tuple
    stride: tuple
    padding: tuple
    dilation: tuple
    ceil_mode: bool
    count_include_pad: bool = True
    divisor_override: int | None = None

    def output_size(self, size: int, dim: int) -> int:
        """PyTorch's pooling_output_shape, with its checks."""
        k, s, p, d = (self.kernel_size[dim], self.stride[dim], self.padding[dim],
                      self.dilation[dim])
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
        out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if self.ceil_mode else 0)) // s + 1
        if self.ceil_mode and (out - 1) * s >= size + p:  # the last window starts in padding
            out -= 1
        return out

    def padding_pairs(self, sizes: tuple, out: tuple) -> tuple:
        """(before, after) per dimension: enough for every window, none of it wasted."""
        return tuple((p, max((n - 1) * s + d * (k - 1) + 1 - size - p, 0))
                     for size, n, k, s, p, d in zip(sizes, out, self.kernel_size, self.stride,
                                                    self.padding, self.dilation))

    def window_view(self, x: np.ndarray, out: tuple, fill: Any = 0) -> np.ndarray:
        """(..., *out, *kernel): each window over `x` padded with `fill`."""
        view = windows(padded(x, self.padding_pairs(x.shape[-2:], out), fill), self.kernel_size,
                       self.stride, self.dilation)
        return view[..., :out[0], :out[1], :, :]

    def starts(self, out: tuple) -> list:
        """Where each window starts, per dimension, in the unpadded input's coordinates."""
        return [np.arange(n) * s - p for n, s, p in zip(out, self.stride, self.padding)]


def check_input(pool: Pooling, x: Tensor) -> tuple:
    """PyTorch's pool2d_shape_check; returns the output's spatial size."""
    out = tuple(pool.output_size(size, dim) for dim, size in enumerate(x.shape[-2:]))
    (kh, kw), (sh, sw), (dh, dw) = pool.kernel_size, pool.stride, pool.dilation
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} "
                           f"dilationW: {dw}")
    planes_present = x.shape[1] != 0 and x.shape[2] != 0
    if not ((x.ndim == 3 and x.shape[0] != 0 and planes_present)
            or (x.ndim == 4 and planes_present and x.shape[3] != 0)):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size "
                           f"for input, but got:{list(x.shape)}")
    if min(out) < 1:
        planes, (h, w) = x.shape[-3], x.shape[-2:]
        raise RuntimeError(f"Given input size: ({planes}x{h}x{w}). Calculated output size: "
                           f"({planes}x{out[0]}x{out[1]}). Output size is too small")
    return out


class MaxPool2DWithIndices(Function):
    """the largest element of each window: dx = g sent to the element each window picked"""
    node_name = "MaxPool2DWithIndicesBackward0"
    saved_names = ("self", "result1")
    saved_attributes = ("kernel_size", "stride", "padding", "dilation", "ceil_mode")

    @staticmethod
    def forward(ctx, x, pool, shown_stride):
        out = check_input(pool, x)
        ctx.kernel_size, ctx.padding, ctx.dilation = pool.kernel_size, pool.padding, pool.dilation
        ctx.stride, ctx.ceil_mode = shown_stride, pool.ceil_mode
        data = x._data
        lowest = -np.inf if data.dtype.kind == "f" else np.iinfo(data.dtype).min
        view = pool.window_view(data, out, lowest)
        flat = view.reshape(*view.shape[:-2], -1)
        picked = flat.argmax(axis=-1)
        values = np.take_along_axis(flat, picked[..., None], axis=-1)[..., 0]
        if data.dtype.kind == "f" and np.isnan(values).any():  # PyTorch keeps the last NaN
            last_nan = flat.shape[-1] - 1 - np.isnan(flat[..., ::-1]).argmax(axis=-1)
            picked = np.where(np.isnan(values), last_nan, picked)
        indices = tensor_of(_input_indices(pool, picked, data.shape[-2:], out))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(x, indices)
        return tensor_of(np.ascontiguousarray(values)), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        x, indices = ctx.saved_tensors
        return MaxPool2DWithIndicesBackward.apply(grad, x, indices), None, None


def _input_indices(pool: Pooling, picked: np.ndarray, size: tuple, out: tuple) -> np.ndarray:
    """Each window's picked element as a flat index into its input plane (row * width + col).
    A window of -inf alone may have picked padding: PyTorch, which never reads padding, then
    names the window's first element inside the input."""
    kw, (dh, dw), (h, w) = pool.kernel_size[1], pool.dilation, size
    row0, col0 = pool.starts(out)
    rows = row0[:, None] + (picked // kw) * dh
    cols = col0[None, :] + (picked % kw) * dw
    outside = (rows < 0) | (rows >= h) | (cols < 0) | (cols >= w)
    if outside.any():
        first_row = row0 + -(-np.maximum(-row0, 0) // dh) * dh  # the first step at or past 0
        first_col = col0 + -(-np.maximum(-col0, 0) // dw) * dw
        rows = np.where(outside, first_row[:, None], rows)
        cols = np.where(outside, first_col[None, :], cols)
    return (rows * w + cols).astype(np.int64)


class MaxPool2DWithIndicesBackward(Function):
    """g sent to the picked elements (summed where windows overlap): dg = gg at those elements"""
    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, indices):
        ctx.save_for_backward(indices)
        ctx.x_meta = x._data.shape, x._data.dtype
        plane = x.shape[-2] * x.shape[-1]
        planes = int(np.prod(x.shape[:-2]))
        where = (indices._data.reshape(planes, -1)
                 + np.arange(planes).reshape(-1, 1) * plane).ravel()
        sums = np.bincount(where, grad._data.ravel(), minlength=planes * plane)
        return tensor_of(sums.astype(grad._data.dtype).reshape(x.shape))

    @staticmethod
    def backward(ctx, grad_grad):
        (indices,) = ctx.saved_tensors
        picked = grad_grad.flatten(-2).gather(-1, indices.flatten(-2))
        return picked.view(indices.shape), _zeros(ctx, 1), None


def _divisor(pool: Pooling, size: tuple, out: tuple) -> np.ndarray:
    """What each window's sum is divided by (output positions, per PyTorch's avg_pool2d)."""
    if pool.divisor_override:
        return np.asarray(pool.divisor_override)
    counts = []
    for starts, n, k, p in zip(pool.starts(out), size, pool.kernel_size, pool.padding):
        ends = np.minimum(starts + k, n + p)
        if not pool.count_include_pad:
            starts, ends = np.maximum(starts, 0), np.minimum(ends, n)
        counts.append(ends - starts)
    return np.multiply.outer(*counts)


class AvgPool2D(Function):
    """each window's mean: dx = g / divisor spread over each window"""
    node_name = "AvgPool2DBackward0"
    saved_names = ("self",)
    saved_attributes = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                        "divisor_override")

    @staticmethod
    def forward(ctx, x, pool, shown_stride):
        out = check_input(pool, x)
        ctx.pool, ctx.kernel_size, ctx.stride = pool, pool.kernel_size, shown_stride
        ctx.padding, ctx.ceil_mode = pool.padding, pool.ceil_mode
        ctx.count_include_pad, ctx.divisor_override = (pool.count_include_pad,
                                                       pool.divisor_override)
        ctx.save_for_backward(x)
        return tensor_of(average_pool(x._data, pool, out))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return AvgPool2DBackward.apply(grad, x, ctx.pool), None, None


def average_pool(x: np.ndarray, pool: Pooling, out: tuple) -> np.ndarray:
    sums = pool.window_view(x, out).sum(axis=(-2, -1))
    divisor = _divisor(pool, x.shape[-2:], out)
    if x.dtype.kind != "f":  # PyTorch divides integers rounding towards zero
        return (np.trunc(sums / divisor)).astype(x.dtype)
    return np.ascontiguousarray((sums / divisor).astype(x.dtype))


class AvgPool2DBackward(Function):
    """g / divisor spread over each window, linear in g: d g = avg_pool2d(gg)"""
    node_name = "AvgPool2DBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, pool):
        ctx.pool, ctx.x_meta = pool, (x._data.shape, x._data.dtype)
        out, size = grad.shape[-2:], x.shape[-2:]
        share = grad._data / _divisor(pool, size, out)
        pairs = pool.padding_pairs(size, out)
        total = np.zeros((*x.shape[:-2], *(n + b + a for n, (b, a) in zip(size, pairs))),
                         dtype=grad._data.dtype)
        spread = np.broadcast_to(share[..., None, None], (*share.shape, *pool.kernel_size))
        add_windows(total, np.moveaxis(spread, (-2, -1), (-4, -3)), pool.stride, pool.dilation)
        (top, _), (left, _) = pairs
        return tensor_of(np.ascontiguousarray(total[..., top:top + size[0], left:left + size[1]]))

    @staticmethod
    def backward(ctx, grad_grad):
        pool = ctx.pool
        return AvgPool2D.apply(grad_grad, pool, pool.stride), _zeros(ctx, 1), None


def _adaptive_bounds(size: int, out: int) -> tuple:
    """PyTorch's adaptive windows: output i averages [floor(i*size/out), ceil((i+1)*size/out))."""
    i = np.arange(out)
    return (i * size) // out, -(-((i + 1) * size) // out)


def _membership(size: int, out: int) -> np.ndarray:
    """(out, size): 1 where input position j is in output i's window."""
    starts, ends = _adaptive_bounds(size, out)
    j = np.arange(size)
    return ((j >= starts[:, None]) & (j < ends[:, None]))


class AdaptiveAvgPool2D(Function):
    """means over windows that tile the input: dx = g / count spread over each window"""
    node_name = "AdaptiveAvgPool2DBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, out):
        ctx.save_for_backward(x)
        ctx.out = out
        rows, cols = (_membership(n, m).astype(x._data.dtype) for n, m in zip(x.shape[-2:], out))
        sums = np.einsum("ih,...hw,jw->...ij", rows, x._data, cols)
        counts = np.multiply.outer(rows.sum(1), cols.sum(1))
        return tensor_of(np.ascontiguousarray((sums / counts).astype(x._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return AdaptiveAvgPool2DBackward.apply(grad, x), None


class AdaptiveAvgPool2DBackward(Function):
    """g / count spread over each window, linear in g: d g = adaptive_avg_pool2d(gg)"""
    node_name = "AdaptiveAvgPool2DBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x):
        ctx.out = out = grad.shape[-2:]
        ctx.x_meta = x._data.shape, x._data.dtype
        rows, cols = (_membership(n, m).astype(grad._data.dtype)
                      for n, m in zip(x.shape[-2:], out))
        counts = np.multiply.outer(rows.sum(1), cols.sum(1))
        spread = np.einsum("ih,...ij,jw->...hw", rows, grad._data / counts, cols)
        return tensor_of(np.ascontiguousarray(spread.astype(grad._data.dtype)))

    @staticmethod
    def backward(ctx, grad_grad):
        return AdaptiveAvgPool2D.apply(grad_grad, ctx.out), _zeros(ctx, 1)


def _zeros(ctx: Any, position: int) -> Tensor | None:
    """What PyTorch's pooling backward ops give their `self` input, on which their result
    does not depend: zeros, when it is wanted."""
    return tensor_of(np.zeros(*ctx.x_meta)) if ctx.needs_input_grad[position] else None


# ---- the functional forms: PyTorch's arguments, checks and messages ----------------------

def _pair(name: str, what: str, value: Any, allow_empty: bool = False) -> tuple:
    """An int or a sequence of one or two ints, as (height, width); () when omitted."""
    values = [value, value] if isinstance(value, int) else list(value)
    if not (1 <= len(values) <= 2 or (allow_empty and not values)):
        raise RuntimeError(f"{name}: {what} must either be {'omitted, ' if allow_empty else ''}"
                           "a single int, or a tuple of two ints")
    return tuple(values * 2 if len(values) == 1 else values)


def _pooling(name: str, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
             ceil_mode: bool, **averaging: Any) -> tuple[Pooling, tuple]:
    """The Pooling, and the stride as PyTorch's node shows it (() when omitted)."""
    kernel = _pair(name, "kernel_size", kernel_size)
    steps = _pair(name, "stride", () if stride is None else stride, allow_empty=True)
    padding = _pair(name, "padding", padding)
    if name == "max_pool2d":
        values = [dilation, dilation] if isinstance(dilation, int) else list(dilation)
        if not 1 <= len(values) <= 2:
            raise RuntimeError("max_pool2d: dilation must be either a single int, or a tuple of "
                               "two ints")
        dilation = tuple(values * 2 if len(values) == 1 else values)
    else:
        dilation = (1, 1)
    return Pooling(kernel, steps or kernel, padding, dilation, bool(ceil_mode),
                   **averaging), steps


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """The largest value of each kernel_size window, moved by stride (kernel_size if omitted)
    over the input padded with -inf; with return_indices, also where each came from (a flat
    index into its input plane)."""
    pool, shown_stride = _pooling("max_pool2d", kernel_size, stride, padding, dilation,
                                  ceil_mode)
    if input.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    values, indices = MaxPool2DWithIndices.apply(input, pool, shown_stride)
    return (values, indices) if return_indices else values


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """The mean of each kernel_size window, moved by stride (kernel_size if omitted) over the
    input padded with zeros, which count in the mean unless count_include_pad=False."""
    if divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    pool, shown_stride = _pooling("avg_pool2d", kernel_size, stride, padding, 1, ceil_mode,
                                  count_include_pad=bool(count_include_pad),
                                  divisor_override=divisor_override)
    if input.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(input.ndim, 1)}, {max(input.ndim, 1) - 1}], but got -3)")
    return AvgPool2D.apply(input, pool, shown_stride)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Means over windows that tile the input into output_size (an int, or a pair where None
    keeps the input's size); windows overlap when the sizes do not divide."""
    if not isinstance(output_size, int):
        if len(input.shape) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        output_size = [n if n is not None else size
                       for n, size in zip(output_size, input.shape[-len(output_size):])]
    out = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(out) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if min(out) < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or "
                           f"equal to 0 but received {{{out[0]}, {out[1]}}}")
    if out == (1, 1):  # PyTorch takes the mean (MeanBackward1)
        return input.mean((-1, -2), keepdim=True)
    if input.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{list(input.shape)}")
    for dim in (input.ndim - 2, input.ndim - 1):
        if input.shape[dim] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but input has sizes {list(input.shape)} "
                               f"with dimension {dim} being empty")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"adaptive_avg_pool2d" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return AdaptiveAvgPool2D.apply(input, out)
