"""Binomial(total_count, probs): successes in total_count trials; sample draws with
torch.binomial's sampler (samplers.py), seed for seed PyTorch's numbers."""
from __future__ import annotations

from typing import Any

from .._dtype import Size
from .._grad_mode import no_grad
from ..random import _pick
from ..tensor import Tensor, tensor_of
from . import constraints, samplers
from .categorical import probs_to_logits
from .distribution import Distribution, broadcast_all, lazy_property
from .multinomial import _lgamma


class Binomial(Distribution):
    """The number of successes in total_count independent trials of probability probs."""
    arg_constraints = {"total_count": constraints.nonnegative_integer,
                       "probs": constraints.unit_interval, "logits": constraints.real}

    def __init__(self, total_count: Any = 1, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
        self._param = self.probs if probs is not None else self.logits
        super().__init__(self._param.size(), validate_args=validate_args)

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Tensor:
        return self.logits.sigmoid()

    @property
    def support(self) -> Any:
        return constraints.integer_interval(0, self.total_count)

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def mode(self) -> Tensor:
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with no_grad():
            count = self.total_count.expand(shape).contiguous()._data
            probs = self.probs.expand(shape).contiguous()._data
            return tensor_of(samplers.binomial(count, probs, _pick(None)))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = _lgamma(self.total_count + 1)
        log_factorial_k = _lgamma(value + 1)
        log_factorial_nmk = _lgamma(self.total_count - value + 1)
        logits = self.logits
        clamped = (logits.clamp(min=0) + logits - logits.clamp(max=0)) / 2
        normalize = (self.total_count * clamped
                     + self.total_count * (-logits.abs()).exp().log1p() - log_factorial_n)
        return value * logits - log_factorial_k - log_factorial_nmk - normalize
