"""F.pixel_shuffle / pixel_unshuffle and nn.PixelShuffle / PixelUnshuffle (the super-resolution
example's last layer): channels C·r² become an r-times larger image, and back. Each is the
other's backward (PixelShuffleBackward0, PixelUnshuffleBackward0), both a reshape and a
transpose of the data."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .module import Module


def _shuffled(x: np.ndarray, r: int) -> np.ndarray:
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    y = y.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(y.reshape(*lead, c // (r * r), h * r, w * r))


def _unshuffled(x: np.ndarray, r: int) -> np.ndarray:
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    y = y.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(y.reshape(*lead, c * r * r, h // r, w // r))


class PixelShuffleFn(Function):
    node_name = "PixelShuffleBackward0"

    @staticmethod
    def forward(ctx, x, r):
        ctx.r = r
        return tensor_of(_shuffled(x._data, r))

    @staticmethod
    def backward(ctx, grad):
        return PixelUnshuffleFn.apply(grad, ctx.r), None


class PixelUnshuffleFn(Function):
    node_name = "PixelUnshuffleBackward0"

    @staticmethod
    def forward(ctx, x, r):
        ctx.r = r
        return tensor_of(_unshuffled(x._data, r))

    @staticmethod
    def backward(ctx, grad):
        return PixelShuffleFn.apply(grad, ctx.r), None


def _check(name: str, x: Tensor, factor: int, what: str) -> None:
    if x.ndim < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {x.ndim} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    _check("pixel_shuffle", input, upscale_factor, "upscale_factor")
    if input.shape[-3] % (upscale_factor ** 2):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)="
                           f"{input.shape[-3]} is not divisible by {upscale_factor ** 2}")
    return PixelShuffleFn.apply(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    _check("pixel_unshuffle", input, downscale_factor, "downscale_factor")
    for dim, side in ((-2, "height"), (-1, "width")):
        if input.shape[dim] % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {side} to be divisible by "
                               f"downscale_factor, but input.size({dim})={input.shape[dim]} is "
                               f"not divisible by {downscale_factor}")
    return PixelUnshuffleFn.apply(input, downscale_factor)


class PixelShuffle(Module):
    """(*, C·r², H, W) to (*, C, H·r, W·r)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H·r, W·r) to (*, C·r², H, W)."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
