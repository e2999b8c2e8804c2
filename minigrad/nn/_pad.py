"""F.pad, as Functions with PyTorch's grad_fn names: a constant border (ConstantPadNdBackward0;
negative amounts crop), or a border copied from the input itself, reflected, replicated or
wrapped around (what a Conv2d with padding_mode='reflect' etc. puts around its input).

A copied border is a gather along each padded dimension, with an index array that numpy's own
pad builds; its gradient adds back through the transposed one-hot matrix of that gather, one
dimension at a time."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of

NUMPY_MODES = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}
NODE_NAMES = {"reflect": "ReflectionPad{}DBackward0", "replicate": "ReplicationPad{}DBackward0"}


def _pairs(pad: tuple) -> list:
    """F.pad's flat (last dim's before, after, next-to-last's before, after, ...) as
    (before, after) per padded dimension, first dimension first."""
    return [(pad[i], pad[i + 1]) for i in range(0, len(pad), 2)][::-1]


def constant_pad(x: np.ndarray, pairs: list, value: Any) -> np.ndarray:
    """Pads the last len(pairs) dimensions; a negative amount crops instead."""
    lead = x.ndim - len(pairs)
    crop = (slice(None),) * lead + tuple(slice(max(-b, 0), n - max(-a, 0))
                                         for n, (b, a) in zip(x.shape[lead:], pairs))
    grow = ((0, 0),) * lead + tuple((max(b, 0), max(a, 0)) for b, a in pairs)
    return np.pad(x[crop], grow, constant_values=value)


class ConstantPadNd(Function):
    """x with a border of `value`: dx = g with that border cut off (a pad by minus the amounts)"""
    node_name = "ConstantPadNdBackward0"
    saved_attributes = ("pad",)

    @staticmethod
    def forward(ctx, x, pad, value):
        ctx.pad = pad
        return tensor_of(constant_pad(x._data, _pairs(pad), value))

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, tuple(-p for p in ctx.pad), 0), None, None


class _CopiedBorder(Function):
    """x with a border copied from x: dx = g added back where each border element came from"""
    mode: str
    backward_cls: type

    @staticmethod
    def forward(ctx, x, pad):
        ctx.pad, ctx.x_meta = pad, (x._data.shape, x._data.dtype)
        if ctx._forward_cls.backward_cls.takes_input:
            ctx.save_for_backward(x)  # as PyTorch does, though only its shape is needed
        out = x._data
        for axis, index in zip(range(-len(pad) // 2, 0), _gathers(x.shape, pad,
                                                                  ctx._forward_cls.mode)):
            out = np.take(out, index, axis=axis)
        return tensor_of(np.ascontiguousarray(out))

    @staticmethod
    def backward(ctx, grad):
        backward_cls = ctx._forward_cls.backward_cls
        if backward_cls.takes_input:  # PyTorch's reflection and replication backward ops do
            return backward_cls.apply(grad, ctx.pad, ctx.x_meta, *ctx.saved_tensors), None
        return backward_cls.apply(grad, ctx.pad, ctx.x_meta), None


def _gathers(shape: tuple, pad: tuple, mode: str) -> list:
    """For each padded dimension, the input position each output position copies."""
    pairs = _pairs(pad)
    return [np.pad(np.arange(n), pair, mode=NUMPY_MODES[mode])
            for n, pair in zip(shape[len(shape) - len(pairs):], pairs)]


class _CopiedBorderBackward(Function):
    """g summed over the copies of each element, linear in g: dg = the forward pad of gg"""
    # (and zeros for x, whose values it does not read, when PyTorch's op takes x)
    forward_cls: type
    takes_input: bool

    @staticmethod
    def forward(ctx, grad, pad, x_meta, x=None):
        ctx.pad, ctx.x_meta = pad, x_meta
        shape, out = x_meta[0], grad._data
        gathers = _gathers(shape, pad, ctx._forward_cls.forward_cls.mode)
        for axis, index in zip(range(-len(gathers), 0), gathers):
            one_hot = (index[:, None] == np.arange(shape[axis])).astype(out.dtype)
            out = np.moveaxis(np.tensordot(out, one_hot, axes=([axis], [0])), -1, axis)
        return tensor_of(np.ascontiguousarray(out))

    @staticmethod
    def backward(ctx, grad_grad):
        zeros = (tensor_of(np.zeros(*ctx.x_meta)) if len(ctx.needs_input_grad) > 3
                 and ctx.needs_input_grad[3] else None)
        return ctx._forward_cls.forward_cls.apply(grad_grad, ctx.pad), None, None, zeros


def _copied_border_classes(mode: str, dims: int) -> type:
    """The Function for one mode and number of dimensions, and its backward's, named as
    PyTorch names them. (Circular padding is made of slices in PyTorch: CopySlices, whose
    backward does not take the input.)"""
    if mode == "circular":
        name, names = "CopySlices", {"node_qualname": "torch::autograd::CopySlices"}
    else:
        name, names = NODE_NAMES[mode].format(dims), {}
    forward_cls = type(f"{mode.capitalize()}Pad{dims}d", (_CopiedBorder,),
                       {"mode": mode, "node_name": name, **names})
    forward_cls.backward_cls = type(f"{mode.capitalize()}Pad{dims}dBackward",
                                    (_CopiedBorderBackward,),
                                    {"forward_cls": forward_cls, "takes_input": mode != "circular",
                                     "node_name": name.replace("Backward0", "BackwardBackward0")})
    return forward_cls


_COPIED = {(mode, dims): _copied_border_classes(mode, dims)
           for mode in NUMPY_MODES for dims in (1, 2, 3)}


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pads the last len(pad) // 2 dimensions: pad lists (before, after) for the last
    dimension first. mode 'constant' fills with value (0 by default); 'reflect', 'replicate'
    and 'circular' copy the input's own edge (for 1 to 3 dimensions)."""
    pad = tuple(pad)
    for i, p in enumerate(pad):
        if not isinstance(p, (int, np.integer)) or isinstance(p, bool):
            raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but found "
                            f"element of type {type(p).__name__} at pos {i}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{input.ndim}")
    if mode == "constant":
        kept = zip(input.shape[input.ndim - len(pad) // 2:], _pairs(pad))
        if any(n + min(before, 0) + min(after, 0) < 0 for n, (before, after) in kept):
            raise RuntimeError("narrow(): length must be non-negative.")
        return ConstantPadNd.apply(input, pad, 0 if value is None else value)
    if mode not in NUMPY_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    dims = len(pad) // 2
    if not (dims in (1, 2, 3) and dims + 1 <= input.ndim <= dims + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "reflect":
        for i, (n, (before, after)) in enumerate(zip(input.shape[-dims:], _pairs(pad))):
            if before >= n or after >= n:
                raise RuntimeError(f"Argument #{4 + 2 * (dims - 1 - i)}: Padding size should be "
                                   "less than the corresponding input dimension, but got: "
                                   f"padding ({before}, {after}) at dimension "
                                   f"{input.ndim - dims + i} of input {list(input.shape)}")
    return _COPIED[(mode, dims)].apply(input, pad)
