"""Distribution, the base of torch.distributions' classes: shapes (a sample's shape is
sample_shape + batch_shape + event_shape), the checks of parameters and of values given to
log_prob, with PyTorch's messages, and the printed form (`Normal(loc: 0.0, scale: 1.0)`)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import Size, get_default_dtype
from .._grad_mode import enable_grad
from ..creation import tensor
from ..ops.operands import check_broadcast
from ..tensor import Tensor


class lazy_property:  # noqa: N801 - PyTorch's name
    """Computed on first read (with grad on, so that its graph is kept), then stored on the
    instance: it then shows in the printed form, as in PyTorch."""

    def __init__(self, compute: Any) -> None:
        self.compute, self.__doc__ = compute, compute.__doc__
        self.name = compute.__name__

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        with enable_grad():
            value = self.compute(instance)
        instance.__dict__[self.name] = value
        return value


def broadcast_all(*values: Any) -> tuple:
    """The values as tensors of one shape: numbers in the dtype of the first tensor (the
    default dtype if there is none); a tensor already of that shape is itself."""
    if not all(isinstance(v, (Tensor, int, float)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), get_default_dtype())
    values = [v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values]
    shape: tuple = ()
    for v in values:
        shape = _broadcast(shape, tuple(v.shape))
    return tuple(v if tuple(v.shape) == shape else v.expand(shape) for v in values)


def _broadcast(a: tuple, b: tuple) -> tuple:
    check_broadcast(a, b)  # PyTorch's error for shapes that do not broadcast
    return tuple(np.broadcast_shapes(a, b))


class Distribution:
    """The base class: shapes, checks of parameters and values, the printed form."""

    has_rsample = False
    arg_constraints: dict = {}
    _validate_args = True  # PyTorch's default (__debug__)

    def __init__(self, batch_shape: Any = Size(), event_shape: Any = Size(),
                 validate_args: bool | None = None) -> None:
        self._batch_shape, self._event_shape = Size(batch_shape), Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None),
                                                             lazy_property):
                    continue  # not made yet: nothing to check
                value = getattr(self, param)
                if not constraint.check(value).all():
                    raise ValueError(f"Expected parameter {param} ({type(value).__name__} of "
                                     f"shape {tuple(value.shape)}) of distribution {self!r} to "
                                     f"satisfy the constraint {constraint!r}, but found invalid "
                                     f"values:\n{value}")

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def _extended_shape(self, sample_shape: Any = Size()) -> Size:
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def sample(self, sample_shape: Any = Size()) -> Tensor:
        raise NotImplementedError

    def rsample(self, sample_shape: Any = Size()) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} does not implement rsample")

    def _validate_sample(self, value: Any) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        actual, expected = value.size(), self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual} vs {expected}.")
        if not self.support.check(value).all():
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape "
                             f"{tuple(value.shape)}) to be within the support "
                             f"({self.support!r}) of the distribution {self!r}, but found "
                             f"invalid values:\n{value}")

    def __repr__(self) -> str:
        shown = [f"{p}: {v if v.numel() == 1 else v.size()}"
                 for p in self.arg_constraints if p in self.__dict__
                 for v in (self.__dict__[p],)]
        return f"{type(self).__name__}({', '.join(shown)})"
