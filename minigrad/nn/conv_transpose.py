"""Transposed convolutions, ConvTranspose1d/2d and F.conv_transpose1d/2d, as in torch.nn: the
adjoint of a convolution, which spreads each input value over a kernel-sized patch of a larger
output (the upsampling half of autoencoders and GANs).

The Function and F.conv_transpose1d/2d's body are in _conv.py, built from the convolution's own
pieces: the forward is a convolution's input gradient, and its gradients are a convolution (for
the input) and a convolution's weight gradient (for the weight), both Functions, so derivatives
of any order work. The grad_fn is ConvolutionBackward0, as in PyTorch."""
from __future__ import annotations

import math
from typing import Any

from ..creation import empty
from ..tensor import Tensor
from ._conv import _tuple, conv_transpose
from .layers import default_init
from .module import Module
from .parameter import Parameter


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

