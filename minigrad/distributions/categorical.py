"""Categorical(probs) or Categorical(logits=...): one of K categories, drawn with
torch.multinomial (so seed for seed the same draws as PyTorch's)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import nn
from .._dtype import Size
from ..creation import full
from ..ops.sampling import multinomial
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution, lazy_property


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """log(probs) (log-odds for a binary one), probs first kept within [eps, 1 - eps] (a 0
    gives a finite log)."""
    eps = float(np.finfo(probs._data.dtype).eps)
    clamped = probs.clamp(min=eps, max=1 - eps)
    return clamped.log() - (-clamped).log1p() if is_binary else clamped.log()


class Categorical(Distribution):
    """One of K categories, by probabilities (normalised) or logits; its draws are torch.multinomial's."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self) -> Tensor:
        return nn.functional.softmax(self.logits, dim=-1)

    @property
    def support(self) -> Any:
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    @property
    def mean(self) -> Tensor:
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(dim=-1)

    @property
    def variance(self) -> Tensor:
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    def sample(self, sample_shape: Any = Size()) -> Tensor:
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        shape = np.broadcast_shapes(tuple(value.shape), tuple(self.logits.shape))
        value = value.expand(shape)[..., :1]
        log_pmf = self.logits if tuple(self.logits.shape) == shape else self.logits.expand(shape)
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self) -> Tensor:
        min_real = float(np.finfo(self.logits._data.dtype).min)
        p_log_p = self.logits.clamp(min=min_real) * self.probs
        return -p_log_p.sum(-1)
