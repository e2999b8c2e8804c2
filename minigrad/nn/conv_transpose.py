"""Transposed convolutions, ConvTranspose1d/2d and F.conv_transpose1d/2d, as in torch.nn: the
adjoint of a convolution, which spreads each input value over a kernel-sized patch of a larger
output (the upsampling half of autoencoders and GANs).

It is built from the convolution's own pieces (_conv.py): the forward is a convolution's input
gradient, and its gradients are a convolution (for the input) and a convolution's weight
gradient (for the weight), both Functions, so derivatives of any order work. The grad_fn is
ConvolutionBackward0, as in PyTorch."""
from __future__ import annotations

import math
from typing import Any

from ..autograd.function import Function
from ..creation import empty
from ..tensor import Tensor
from ._conv import Convolution, ConvolutionBackward, Geometry, input_gradient
from .conv import _tuple
from .layers import default_init
from .module import Module
from .parameter import Parameter


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
        return Tensor(y)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        need = ctx.needs_input_grad
        grad_x = Convolution.apply(grad, w, None, ctx.geo) if need[0] else None
        grad_w = ConvolutionBackward.apply(x, grad, w, ctx.geo, (False, True, False))[1] \
            if need[1] else None
        grad_b = grad.sum((0, *range(2, grad.ndim))) if need[2] else None
        return grad_x, grad_w, grad_b, None, None


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


class _ConvTransposeNd(Module):
    """What ConvTranspose1d and ConvTranspose2d share; weight (in, out / groups, *kernel)."""

    dims: int

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels must be divisible by groups" if in_channels % groups
                             else "out_channels must be divisible by groups")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _tuple(kernel_size, self.dims), _tuple(stride, self.dims)
        self.padding, self.dilation = _tuple(padding, self.dims), _tuple(dilation, self.dims)
        self.output_padding = _tuple(output_padding, self.dims)
        self.groups, self.padding_mode, self.transposed = groups, padding_mode, True
        self.weight = Parameter(empty(in_channels, out_channels // groups, *self.kernel_size,
                                      dtype=dtype))
        self.register_parameter("bias", Parameter(empty(out_channels, dtype=dtype))
                                if bias else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        default_init(self.weight, self.bias, self.weight.shape[1] * math.prod(self.kernel_size))

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        output_padding = self.output_padding
        if output_size is not None:  # the output_padding that gives that size
            given = tuple(output_size)[-self.dims:]
            smallest = [(n - 1) * s - 2 * p + d * (k - 1) + 1 for n, s, p, d, k in zip(
                input.shape[-self.dims:], self.stride, self.padding, self.dilation,
                self.kernel_size)]
            output_padding = tuple(int(g - m) for g, m in zip(given, smallest))
        return conv_transpose(input, self.weight, self.bias, self.stride, self.padding,
                              output_padding, self.groups, self.dilation, self.dims)

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if any(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * self.dims:
            text += f", dilation={self.dilation}"
        if any(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        return text + (", bias=False" if self.bias is None else "")


class ConvTranspose1d(_ConvTransposeNd):
    """A transposed 1-D convolution over (batch, in_channels, length)."""
    dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """A transposed 2-D convolution over (batch, in_channels, height, width)."""
    dims = 2

