"""Lazy layers: LazyLinear, LazyConv1d/2d and LazyBatchNorm1d/2d leave their input size open
until the first call, then make their parameters for it and become the plain layer (a
LazyLinear turns into a Linear), as in PyTorch. Until then each parameter is an
UninitializedParameter. Weights are drawn at that first call, so a seeded program draws
PyTorch's numbers in PyTorch's order."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype, _grad_mode
from ..tensor import Tensor, tensor_of
from .conv import Conv1d, Conv2d
from .layers import Linear
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d
from .parameter import Parameter


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet; `materialize(shape)` makes it a Parameter."""

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:
        d = (dtype or _dtype.get_default_dtype()).numpy
        super().__init__(tensor_of(np.empty((0,), dtype=d)), requires_grad)

    def materialize(self, shape: tuple) -> None:
        self._data = np.empty(shape, dtype=self._data.dtype)
        self.__class__ = Parameter

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__


class LazyModuleMixin:
    """Runs `initialize_parameters(input)` before the first forward, then becomes
    `cls_to_become`."""

    cls_to_become: type

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter, or a buffer (empty until then), waits for the first call. Not
        after a state_dict's load (materialize_from): the first call then draws nothing."""
        return (any(isinstance(p, UninitializedParameter) for p in self._parameters.values())
                or any(b is not None and b.dim() == 1 and b.numel() == 0
                       for b in self._buffers.values()))

    def materialize_from(self, state_dict: dict, prefix: str) -> None:
        """Before a state_dict is loaded: each parameter not made yet, and each buffer of a
        layer still lazy (empty until its first call), takes the shape of the value loaded into
        it, as PyTorch's load hook for lazy modules does. The first call then draws nothing."""
        if type(self) is self.cls_to_become:
            return
        for name, param in self._parameters.items():
            if isinstance(param, UninitializedParameter) and prefix + name in state_dict:
                param.materialize(tuple(state_dict[prefix + name].shape))
        for name, buffer in self._buffers.items():
            if buffer is not None and buffer.numel() == 0 and prefix + name in state_dict:
                self._buffers[name] = tensor_of(np.empty(tuple(state_dict[prefix + name].shape),
                                                      dtype=buffer._data.dtype))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if type(self) is not self.cls_to_become:  # still lazy: this is the first call
            with _grad_mode.no_grad():
                self.initialize_parameters(*args, **kwargs)
            self.__class__ = self.cls_to_become
        return Module.__call__(self, *args, **kwargs)


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose in_features is the last size of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter(dtype=dtype)
        self.register_parameter("bias", UninitializedParameter(dtype=dtype) if bias else None)

    def initialize_parameters(self, input: Tensor) -> None:
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            Linear.reset_parameters(self)
        if self.in_features == 0:  # loaded: PyTorch 2.13 takes in_features from the input
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} "
                                     "is not equal to in_features from self.weight: "
                                     f"{self.weight.shape[-1]}")
            self.in_features = input.shape[-1]

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            Linear.reset_parameters(self)


class _LazyConv(LazyModuleMixin):
    """A convolution whose in_channels is its first input's channels (dim 1, or 0 unbatched)."""

    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        self.cls_to_become.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups,
                                    False, padding_mode, dtype=dtype)
        self.out_channels = out_channels
        self.weight = UninitializedParameter(dtype=dtype)
        self.register_parameter("bias", UninitializedParameter(dtype=dtype) if bias else None)

    def initialize_parameters(self, input: Tensor) -> None:
        if not self.has_uninitialized_params():  # loaded (in_channels stays 0, as PyTorch's)
            return
        batched = input.dim() == self.dims + 2
        self.in_channels = input.shape[1 if batched else 0]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        self.weight.materialize((self.out_channels, self.in_channels // self.groups,
                                 *self.kernel_size))
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.cls_to_become.reset_parameters(self)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            self.cls_to_become.reset_parameters(self)


class LazyConv1d(_LazyConv, Conv1d):
    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    cls_to_become = Conv2d


class _LazyBatchNorm(LazyModuleMixin):
    def __init__(self, eps: float = 1e-05, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None) -> None:
        self.cls_to_become.__init__(self, 0, eps, momentum, affine, track_running_stats,
                                    dtype=dtype)
        for name, param in list(self._parameters.items()):
            if param is not None:
                self.register_parameter(name, UninitializedParameter(dtype=dtype))

    def initialize_parameters(self, input: Tensor) -> None:
        if not self.has_uninitialized_params():  # loaded (num_features stays 0, as PyTorch's)
            return
        self.num_features = input.shape[1]
        for param in self._parameters.values():
            if param is not None:
                param.materialize((self.num_features,))
        with _grad_mode.no_grad():
            if self.weight is not None:
                self.weight.fill_(1)
            if self.bias is not None:
                self.bias.zero_()
            if self.running_mean is not None:
                dtype = self.running_mean._data.dtype
                self.running_mean = tensor_of(np.zeros(self.num_features, dtype))
                self.running_var = tensor_of(np.ones(self.num_features, dtype))


class LazyBatchNorm1d(_LazyBatchNorm, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm, BatchNorm2d):
    cls_to_become = BatchNorm2d
