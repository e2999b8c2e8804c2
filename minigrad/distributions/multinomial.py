"""Multinomial(total_count, probs): the counts of each category in total_count draws of a
Categorical (sample draws them one by one, as PyTorch does, and counts with scatter_add_)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._dtype import Size
from ..creation import ones_like
from ..tensor import Tensor, tensor_of
from . import constraints
from .categorical import Categorical
from .distribution import Distribution, broadcast_all


def _lgamma(value: Tensor) -> Tensor:
    """log |Gamma(x)| per element, of counts (no gradient: PyTorch's would reach the counts)."""
    if value.requires_grad:
        raise NotImplementedError("minigrad is a subset of PyTorch: Multinomial.log_prob of "
                                  "counts that require grad is not implemented")
    data = value._data
    return tensor_of(np.vectorize(math.lgamma, otypes=[data.dtype])(data).astype(data.dtype))


class Multinomial(Distribution):
    """The counts of each of K categories in total_count draws of a Categorical."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count: int = 1, probs: Tensor | None = None,
                 logits: Tensor | None = None, validate_args: bool | None = None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def support(self) -> Any:
        return constraints.multinomial(self.total_count)

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = Size()) -> Tensor:
        sample_shape = Size(sample_shape)
        samples = self._categorical.sample(Size((self.total_count,)) + sample_shape)
        # (total_count, sample_shape, batch_shape) to (sample_shape, batch_shape, total_count)
        order = list(range(samples.dim()))
        order.append(order.pop(0))
        samples = samples.permute(*order)
        counts = samples.new_zeros(self._extended_shape(sample_shape))
        counts.scatter_add_(-1, samples, ones_like(samples))
        return counts.type_as(self.probs)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = _lgamma(value.sum(-1) + 1)
        log_factorial_xs = _lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers
