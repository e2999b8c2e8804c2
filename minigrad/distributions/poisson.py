"""Poisson(rate): counts of events at a given rate; sample draws with torch.poisson's sampler
(samplers.py), seed for seed PyTorch's numbers."""
from __future__ import annotations

from typing import Any

from .._dtype import Size
from .._grad_mode import no_grad
from ..ops.pointwise_more import Xlogy
from ..random import _pick
from ..tensor import Tensor, tensor_of
from . import constraints, samplers
from .distribution import Distribution, broadcast_all
from .multinomial import _lgamma


class Poisson(Distribution):
    """The number of events in a unit of time when they come at `rate` on average."""
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        shape = Size() if not isinstance(rate, Tensor) else self.rate.size()
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, sample_shape: Any = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with no_grad():
            rate = self.rate.expand(shape).contiguous()._data
            return tensor_of(samplers.poisson(rate, _pick(None)))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return Xlogy.apply(value, rate) - rate - _lgamma(value + 1)
