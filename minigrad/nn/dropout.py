"""Dropout: while training, each element (or each channel, for dropout1d/2d) is zeroed with
probability p and the rest scaled by 1 / (1 - p); in eval mode the input passes as it is.

The mask is PyTorch's: its CPU bernoulli_(1 - p) draws one float64 uniform number per element
from the generator and keeps the element where it is below 1 - p, so a seeded program drops
the same elements as in PyTorch. The result is input * noise (grad_fn MulBackward0)."""
from __future__ import annotations

import warnings

import numpy as np

from ..random import _pick
from ..tensor import Tensor, tensor_of
from .module import Module

DROPOUT2D_3D = (
    "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
    "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
    "dim. This behavior will change in a future release to interpret the input as one without "
    "a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout "
    "behavior, please switch to using dropout1d instead.")
DROPOUT2D_DIMS = (
    "dropout2d: Received a {}-D input to dropout2d, which is deprecated and will result in an "
    "error in a future release. To retain the behavior and silence this warning, please use "
    "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with "
    "2 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
    "inputs).")


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropped(input: Tensor, p: float, training: bool, inplace: bool, per_channel: bool) -> Tensor:
    """input * noise, noise 0 or 1 / (1 - p) per element (or per channel: shape (N, C, 1...))."""
    if p == 0 or not training or input.numel() == 0:
        return input
    if per_channel and input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = input.shape[:2] + (1,) * (input.ndim - 2) if per_channel else input.shape
    dtype = input._data.dtype
    if p == 1:
        noise = np.zeros((), dtype=dtype)
    else:
        kept = _pick(None).uniform(tuple(shape), 0.0, 1.0, np.float64) < 1 - p
        noise = kept.astype(dtype) / dtype.type(1 - p)
    return input.mul_(tensor_of(noise)) if inplace else input * tensor_of(noise)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _check_p(p)
    return _dropped(input, p, training, inplace, per_channel=False)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    _check_p(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D "
                           "input. Note that dropout1d exists to provide channel-wise dropout on "
                           "inputs with 1 spatial dimension, a channel dimension, and an optional "
                           "batch dimension (i.e. 2D or 3D inputs).")
    if input.ndim == 2:  # no batch dimension: each row is a channel
        return _dropped(input.unsqueeze(0), p, training, inplace, True).squeeze(0)
    return _dropped(input, p, training, inplace, per_channel=True)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    _check_p(p)
    if input.ndim not in (3, 4):
        warnings.warn(DROPOUT2D_DIMS.format(input.ndim), UserWarning, stacklevel=2)
    if input.ndim == 3:
        warnings.warn(DROPOUT2D_3D, UserWarning, stacklevel=2)
    return _dropped(input, p, training, inplace, per_channel=True)


class Dropout(Module):
    """Zeroes each element with probability p while training (see `dropout`)."""

    _functional = staticmethod(dropout)

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        _check_p(p)
        self.p, self.inplace = p, inplace

    def forward(self, input: Tensor) -> Tensor:
        return type(self)._functional(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(Dropout):
    """Zeroes whole channels of (N, C, L) inputs (see `dropout1d`)."""

    _functional = staticmethod(dropout1d)


class Dropout2d(Dropout):
    """Zeroes whole channels of (N, C, H, W) inputs (see `dropout2d`)."""

    _functional = staticmethod(dropout2d)
