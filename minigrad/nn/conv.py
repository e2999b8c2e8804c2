"""Conv1d, Conv2d and Conv3d, as in torch.nn: their arguments, checks, printed form and
initial weights (drawn from PyTorch's generator in PyTorch's order, so a seeded model starts
from PyTorch's numbers)."""
from __future__ import annotations

import math
from typing import Any

from ..creation import empty
from ..tensor import Tensor
from . import functional as F
from ._conv import _tuple
from .layers import default_init
from .module import Module
from .parameter import Parameter

PADDING_STRINGS = ("same", "valid")
PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    """What Conv1d, Conv2d and Conv3d share; `dims` is the number of spatial dimensions."""

    dims: int

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        kernel_size, stride = _tuple(kernel_size, self.dims), _tuple(stride, self.dims)
        dilation = _tuple(dilation, self.dims)
        if isinstance(padding, str):
            if padding not in PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'same', 'valid'}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _tuple(padding, self.dims)
        if padding_mode not in PADDING_MODES:
            raise ValueError("padding_mode must be one of {'replicate', 'circular', 'zeros', "
                             f"'reflect'}}, but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.groups, self.padding_mode = dilation, groups, padding_mode
        self.transposed, self.output_padding = False, (0,) * self.dims
        # What F.pad is given when padding_mode is not 'zeros': (before, after) per
        # dimension, last dimension first.
        if padding == "same":
            self._reversed_padding_repeated_twice = [0, 0] * self.dims
            for i, (d, k) in enumerate(zip(dilation, kernel_size)):
                total = d * (k - 1)
                before = total // 2
                self._reversed_padding_repeated_twice[2 * (self.dims - 1 - i):
                                                      2 * (self.dims - i)] = [before,
                                                                              total - before]
        else:
            self._reversed_padding_repeated_twice = tuple(
                p for p in reversed((0,) * self.dims if padding == "valid" else padding)
                for _ in range(2))
        self.weight = Parameter(empty(out_channels, in_channels // groups, *kernel_size,
                                      dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """As PyTorch: kaiming_uniform_(a=sqrt(5)) with fan_in = in_channels / groups times
        the kernel's size, and the bias uniform in +-1/sqrt(fan_in)."""
        fan_in = self.weight.shape[1] * math.prod(self.weight.shape[2:])
        default_init(self.weight, self.bias, fan_in)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self.dims - 1]
        if self.padding_mode != "zeros":
            return conv(F.pad(input, self._reversed_padding_repeated_twice,
                              mode=self.padding_mode),
                        weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_ConvNd):
    """A 1-D convolution over (batch, in_channels, length): out_channels filters of
    kernel_size taps each (see `functional.conv1d`)."""
    dims = 1


class Conv2d(_ConvNd):
    """A 2-D convolution over (batch, in_channels, height, width): out_channels filters of
    kernel_size each (see `functional.conv2d`)."""
    dims = 2


class Conv3d(_ConvNd):
    """A 3-D convolution over (batch, in_channels, depth, height, width) (see
    `functional.conv3d`)."""
    dims = 3
