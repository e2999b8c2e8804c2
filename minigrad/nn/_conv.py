"""Convolution on numpy, as Functions with PyTorch's grad_fn names, for conv1d and conv2d.

Each window the kernel visits is a strided view of the padded input (numpy's
sliding_window_view). Copying the windows into rows (im2col) turns the convolution into one
matrix product per group, which BLAS does fast. Backward is two more products: the output
gradient's rows times the weight, added back into the windows they came from (one strided add
per kernel position, never a loop over pixels), and the gradient's rows times the input's rows.

The three computations are bilinear, so each one's derivative is made of the other two:
ConvolutionBackward0's backward is a Function too (ConvolutionBackwardBackward0, as PyTorch
names it) and derivatives of any order work."""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from ._ops import _word
from ._pad import pad


@dataclass(frozen=True)
class Geometry:
    """How the kernel moves over the input: per spatial dimension, the step, the padding
    before and after, and the spacing between kernel elements; and the channel groups."""
    stride: tuple
    padding: tuple  # ((before, after), ...)
    dilation: tuple
    groups: int


def windows(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """A view of `x` (batch, channels, *spatial) as (batch, channels, *out, *kernel): every
    window the kernel visits, no copy."""
    dims = len(kernel)
    spans = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = sliding_window_view(x, spans, axis=tuple(range(x.ndim - dims, x.ndim)))
    steps = tuple(slice(None, None, s) for s in stride) + tuple(slice(None, None, d)
                                                                for d in dilation)
    return view[(slice(None),) * (x.ndim - dims) + steps]


def add_windows(target: np.ndarray, values: np.ndarray, stride: tuple, dilation: tuple) -> None:
    """The reverse of `windows`: adds `values` (batch, channels, *kernel, *out) into `target`
    at the places each window read, one strided slice per kernel position."""
    dims = len(stride)
    lead = (slice(None),) * (target.ndim - dims)
    kernel, out = values.shape[len(lead):len(lead) + dims], values.shape[len(lead) + dims:]
    for offset in product(*map(range, kernel)):
        where = tuple(slice(k * d, k * d + s * (n - 1) + 1, s)
                      for k, d, s, n in zip(offset, dilation, stride, out))
        target[lead + where] += values[lead + offset]


def padded(x: np.ndarray, padding: tuple, value: Any = 0) -> np.ndarray:
    """`x` with `value` added around its last dimensions: ((before, after), ...) per dimension."""
    if not any(before or after for before, after in padding):
        return x
    return np.pad(x, ((0, 0),) * (x.ndim - len(padding)) + tuple(padding),
                  constant_values=value)


def _rows(x: np.ndarray, kernel: tuple, geo: Geometry) -> tuple[np.ndarray, tuple]:
    """im2col: (groups, batch * output positions, channels per group * kernel size), each row
    one window; and the output's spatial shape."""
    dims = len(kernel)
    view = windows(padded(x, geo.padding), kernel, geo.stride, geo.dilation)
    n, c, out = x.shape[0], x.shape[1], view.shape[2:2 + dims]
    view = view.reshape(n, geo.groups, c // geo.groups, *view.shape[2:])
    # (groups, batch, *out, channels per group, *kernel), then one row per window
    order = (1, 0, *range(3, 3 + dims), 2, *range(3 + dims, 3 + 2 * dims))
    return view.transpose(order).reshape(geo.groups, n * math.prod(out), -1), out


def _grad_rows(grad: np.ndarray, groups: int) -> np.ndarray:
    """The output gradient (batch, out channels, *out) as (groups, batch * positions,
    out channels per group), matching _rows."""
    n, o, out = grad.shape[0], grad.shape[1], grad.shape[2:]
    split = grad.reshape(n, groups, o // groups, *out)
    order = (1, 0, *range(3, 3 + len(out)), 2)
    return split.transpose(order).reshape(groups, n * math.prod(out), o // groups)


def convolve(x: np.ndarray, w: np.ndarray, geo: Geometry) -> np.ndarray:
    """The convolution (a cross-correlation, as in PyTorch) of x with w, without bias."""
    rows, out = _rows(x, w.shape[2:], geo)
    o = w.shape[0]
    products = rows @ w.reshape(geo.groups, o // geo.groups, -1).transpose(0, 2, 1)
    dims = len(out)
    split = products.reshape(geo.groups, x.shape[0], *out, o // geo.groups)
    order = (1, 0, 2 + dims, *range(2, 2 + dims))  # (batch, groups, per group, *out)
    return np.ascontiguousarray(split.transpose(order)).reshape(x.shape[0], o, *out)


def input_gradient(grad: np.ndarray, w: np.ndarray, x_shape: tuple, geo: Geometry) -> np.ndarray:
    """d convolve(x, w) / dx applied to `grad`: each row's gradient, added back where its
    window was."""
    dims, g = w.ndim - 2, geo.groups
    kernel, out = w.shape[2:], grad.shape[2:]
    rows = _grad_rows(grad, g) @ w.reshape(g, w.shape[0] // g, -1)
    n, c = x_shape[0], x_shape[1]
    rows = rows.reshape(g, n, *out, c // g, *kernel)
    # (batch, groups, channels per group, *kernel, *out), the layout add_windows reads
    order = (1, 0, 2 + dims, *range(3 + dims, 3 + 2 * dims), *range(2, 2 + dims))
    values = rows.transpose(order).reshape(n, c, *kernel, *out)
    spatial = tuple(size + before + after
                    for size, (before, after) in zip(x_shape[2:], geo.padding))
    total = np.zeros((n, c, *spatial), dtype=grad.dtype)
    add_windows(total, values, geo.stride, geo.dilation)
    inside = tuple(slice(before, before + size)
                   for size, (before, _) in zip(x_shape[2:], geo.padding))
    return np.ascontiguousarray(total[(slice(None), slice(None)) + inside])


def weight_gradient(x: np.ndarray, grad: np.ndarray, w_shape: tuple, geo: Geometry) -> np.ndarray:
    """d convolve(x, w) / dw applied to `grad`: the gradient's rows times the input's."""
    rows, _ = _rows(x, w_shape[2:], geo)
    return (_grad_rows(grad, geo.groups).transpose(0, 2, 1) @ rows).reshape(w_shape)


class Convolution(Function):
    """conv(x, w) + b: dx = input_gradient(g, w), dw = weight_gradient(x, g), db = g per channel"""
    node_name = "ConvolutionBackward0"
    saved_names = ("input", "weight")
    saved_attributes = ("stride", "padding", "dilation", "groups", "transposed", "output_padding",
                        "bias_sym_sizes_opt")
    optional_tensors = (2,)  # the bias

    @staticmethod
    def forward(ctx, x, w, b, geo):
        ctx.geo = geo
        ctx.stride, ctx.dilation, ctx.groups = geo.stride, geo.dilation, geo.groups
        ctx.padding = tuple(before for before, _ in geo.padding)
        ctx.transposed, ctx.output_padding = False, (0,) * len(geo.stride)
        ctx.bias_sym_sizes_opt = None if b is None else tuple(b.shape)
        ctx.save_for_backward(x, w)
        y = convolve(x._data, w._data, geo)
        if b is not None:
            y += b._data.reshape(-1, *(1,) * (y.ndim - 2))
        return tensor_of(y)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        wanted = ctx.needs_input_grad[:3]
        return (*ConvolutionBackward.apply(grad, x, w, ctx.geo, wanted), None)


class ConvolutionBackward(Function):
    """dg = conv(ggx,w)+conv(x,ggw)+ggb, dx = input_gradient(g,ggw), dw = weight_gradient(ggx,g)"""
    # Convolution's three gradients, (input_gradient(g, w), weight_gradient(x, g), g summed per
    # channel), as one op: each is bilinear, so its derivative is made of the others.
    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, w, geo, wanted):
        ctx.geo = geo
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(grad, x, w)
        g = grad._data
        gx = tensor_of(input_gradient(g, w._data, x.shape, geo)) if wanted[0] else None
        gw = tensor_of(weight_gradient(x._data, g, w.shape, geo)) if wanted[1] else None
        gb = tensor_of(g.sum(axis=(0, *range(2, g.ndim)))) if wanted[2] else None
        return gx, gw, gb

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, x, w = ctx.saved_tensors
        need = ctx.needs_input_grad
        geo = ctx.geo
        d_grad = d_x = d_w = None
        if need[0]:
            terms = [Convolution.apply(ggx, w, ggb, geo)] if ggx is not None else []
            if ggw is not None:
                terms.append(Convolution.apply(x, ggw, None, geo))
            if ggx is None and ggb is not None:
                terms.append(ggb.reshape(-1, *(1,) * (grad.ndim - 2)).expand(grad.shape))
            d_grad = sum(terms[1:], terms[0]) if terms else None
        if need[1] and ggw is not None:
            d_x = ConvolutionBackward.apply(grad, x, ggw, geo, (True, False, False))[0]
        if need[2] and ggx is not None:
            d_w = ConvolutionBackward.apply(grad, ggx, w, geo, (False, True, False))[1]
        return d_grad, d_x, d_w, None, None


# ---- conv1d and conv2d: PyTorch's arguments, checks and messages ----------------------------

def _expand(name: str, value: Any, dims: int) -> tuple:
    """An int for every spatial dimension, or one per dimension, else PyTorch's message."""
    values = (value,) * dims if isinstance(value, int) else tuple(value)
    if len(values) != dims:
        if len(values) == 1:
            return values * dims
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} "
                           f"values to match the convolution dimensions, but got {name}="
                           f"{list(values)}")
    return values


def _shown(value: Any, dims: int) -> list:
    """How PyTorch's argument parser shows an int argument it expanded: as a list."""
    return [value] * dims if isinstance(value, int) else list(value)


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any,
                dilation: Any, groups: int, dims: int) -> Tensor:
    """F.conv1d, F.conv2d and F.conv3d (dims 1, 2, 3), checked as PyTorch checks them."""
    name = f"conv{dims}d"
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input.shape)}")
    if input.ndim == dims + 1:  # one sample: PyTorch adds the batch axis, then takes it away
        return convolution(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups,
                           dims).squeeze(0)
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    k = weight.ndim - 2  # PyTorch counts the spatial dimensions from the weight
    stride = _expand("stride", _shown(stride, dims), k)
    dilation = _expand("dilation", _shown(dilation, dims), k)
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
    else:
        padding = _expand("padding", _shown(padding, dims), k)
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if not isinstance(padding, str) and any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if input.ndim != weight.ndim:
        raise RuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-"
                           f"dimensional weight {list(weight.shape)}, but got {input.ndim}-"
                           f"dimensional input of size {list(input.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{list(weight.shape)}] "
                           "instead")
    if input.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, "
                           f"expected input{list(input.shape)} to have "
                           f"{weight.shape[1] * groups} channels, but got {input.shape[1]} "
                           "channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be "
                           f"1-dimensional with {weight.shape[0]} elements, but got bias of "
                           f"size {list(bias.shape)} instead")
    kernel = weight.shape[2:]
    spans = [d * (n - 1) + 1 for n, d in zip(kernel, dilation)]
    if padding == "valid":
        pairs = ((0, 0),) * k
    elif padding == "same":
        pairs = tuple(((span - 1) // 2,) * 2 for span in spans)
        extra = [(span - 1) % 2 for span in spans]  # an odd total: the odd one goes after
        if any(extra):  # as PyTorch: a zero-padded copy first, then a symmetric convolution
            _warn_once_of_padded_copy()
            input = pad(input, [p for e in reversed(extra) for p in (0, e)])
    else:
        pairs = tuple((p, p) for p in padding)
    sizes = [n + before + after for n, (before, after) in zip(input.shape[2:], pairs)]
    if any(size < span for size, span in zip(sizes, spans)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, sizes))}). Kernel size: "
                           f"({' x '.join(map(str, spans))}). Kernel size can't be greater than "
                           "actual input size")
    if weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_word(input)} but found {_word(weight)}")
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({input.dtype.cpp_name}) and bias type "
                           f"({bias.dtype.cpp_name}) should be the same")
    return Convolution.apply(input, weight, bias, Geometry(stride, pairs, dilation, groups))


_warned_of_padded_copy = False


def _warn_once_of_padded_copy() -> None:
    """PyTorch says this once per process (TORCH_WARN_ONCE)."""
    global _warned_of_padded_copy
    if not _warned_of_padded_copy:
        _warned_of_padded_copy = True
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
                      "require a zero-padded copy of the input be created", UserWarning,
                      stacklevel=4)


def _tuple(value: Any, dims: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims


# ---- transposed convolutions (nn/conv_transpose.py's modules) -----------------------------

class ConvolutionTransposed(Function):
    """convT(x, w) + b = input_gradient(x, w) + b: dx = conv(g, w), dw = weight_gradient(g, x),
    db = g per channel"""
    node_name = "ConvolutionBackward0"
    saved_names = ("input", "weight")
    optional_tensors = (2,)  # the bias

    @staticmethod
    def forward(ctx, x, w, b, geo, out_shape):
        ctx.geo = geo
        ctx.save_for_backward(x, w)
        y = input_gradient(x._data, w._data, out_shape, geo)
        if b is not None:
            y += b._data.reshape(-1, *(1,) * (y.ndim - 2))
        return tensor_of(y)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return (*ConvolutionTransposedBackward.apply(grad, x, w, ctx.geo, x.shape,
                                                     ctx.needs_input_grad[:3]), None, None)


class ConvolutionTransposedBackward(Function):
    """dg = convT(ggx,w)+convT(x,ggw)+ggb, dx = conv(g,ggw), dw = weight_gradient(g,ggx)"""
    # ConvolutionTransposed's three gradients (conv(g, w), weight_gradient(g, x), g summed per
    # channel) as one op, PyTorch's ConvolutionBackwardBackward0 of a transposed convolution.
    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, w, geo, x_shape, wanted):
        ctx.geo, ctx.out_shape = geo, grad.shape
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(grad, x, w)
        g = grad._data
        gx = tensor_of(convolve(g, w._data, geo)) if wanted[0] else None
        gw = tensor_of(weight_gradient(g, x._data, w.shape, geo)) if wanted[1] else None
        gb = tensor_of(g.sum(axis=(0, *range(2, g.ndim)))) if wanted[2] else None
        return gx, gw, gb

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, x, w = ctx.saved_tensors
        need, geo, out_shape = ctx.needs_input_grad, ctx.geo, ctx.out_shape
        d_grad = d_x = d_w = None
        if need[0]:
            terms = [ConvolutionTransposed.apply(ggx, w, ggb, geo, out_shape)] \
                if ggx is not None else []
            if ggw is not None:
                terms.append(ConvolutionTransposed.apply(x, ggw, None, geo, out_shape))
            if ggx is None and ggb is not None:
                terms.append(ggb.reshape(-1, *(1,) * (grad.ndim - 2)).expand(grad.shape))
            d_grad = sum(terms[1:], terms[0]) if terms else None
        if need[1] and ggw is not None:
            d_x = Convolution.apply(grad, ggw, None, geo)
        if need[2] and ggx is not None:
            d_w = ConvolutionBackward.apply(ggx, grad, w, geo, (False, True, False))[1]
        return d_grad, d_x, d_w, None, None, None


def conv_transpose(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,
                   padding: Any, output_padding: Any, groups: int, dilation: Any,
                   dims: int) -> Tensor:
    """F.conv_transpose1d (dims 1) and F.conv_transpose2d (dims 2)."""
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                           f"conv_transpose{dims}d, but got input of size: {list(input.shape)}")
    if input.ndim == dims + 1:
        return conv_transpose(input.unsqueeze(0), weight, bias, stride, padding, output_padding,
                              groups, dilation, dims).squeeze(0)
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    stride, padding = _tuple(stride, dims), _tuple(padding, dims)
    output_padding, dilation = _tuple(output_padding, dims), _tuple(dilation, dims)
    if input.shape[1] != weight.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected "
                           f"input{list(input.shape)} to have {weight.shape[0]} channels, but "
                           f"got {input.shape[1]} channels instead")
    if any(op >= max(s, d) for op, s, d in zip(output_padding, stride, dilation)):
        # PyTorch's kernel is 2-D: a 1-D one has height 1 (output padding 0)
        shown = {"output_padding": output_padding, "stride": stride, "dilation": dilation}
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           "got " + " ".join(
                               f"{name}_{side}: {value}" for name, values in shown.items()
                               for side, value in zip(("height", "width"), (
                                   (0 if name == "output_padding" else 1,) * (2 - dims)
                                   + tuple(values)))))
    spatial = tuple((n - 1) * s - 2 * p + d * (k - 1) + op + 1 for n, s, p, d, k, op in zip(
        input.shape[2:], stride, padding, dilation, weight.shape[2:], output_padding))
    out_shape = (input.shape[0], weight.shape[1] * groups, *spatial)
    geo = Geometry(stride, tuple((p, p) for p in padding), dilation, groups)
    return ConvolutionTransposed.apply(input, weight, bias, geo, out_shape)
