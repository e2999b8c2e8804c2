"""F.interpolate / F.upsample in mode 'nearest', and nn.Upsample: each output element copies
the input element at floor(i * scale) along each spatial dimension (scale = 1 / scale_factor
if given, else in / out), computed in float32 as PyTorch's nearest_idx does; the gradient adds
back into the copied elements (UpsampleNearest1D/2D/3DBackward0)."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from .module import Module


def _source(size_in: int, size_out: int, scale_factor: float | None) -> np.ndarray:
    """PyTorch's nearest_idx for each output position."""
    out = np.arange(size_out)
    if size_out == size_in:
        return out
    if size_out == 2 * size_in:
        return out >> 1
    scale = np.float32(1.0 / scale_factor if scale_factor else size_in / size_out)
    return np.minimum(np.floor(out.astype(np.float32) * scale).astype(np.int64), size_in - 1)


class UpsampleNearest(Function):
    """The copy, for any number of spatial dimensions; _CLASSES names it per number."""

    @staticmethod
    def forward(ctx, x, sizes, factors):
        spatial = x.ndim - 2
        ctx.shape = x.shape
        ctx.index = np.ix_(*[np.arange(n) for n in x.shape[:2]],
                           *[_source(x.shape[2 + d], sizes[d], factors[d])
                             for d in range(spatial)])
        return tensor_of(np.ascontiguousarray(x._data[ctx.index]))

    @staticmethod
    def backward(ctx, grad):
        summed = np.zeros(ctx.shape, grad._data.dtype)
        np.add.at(summed, ctx.index, grad._data)
        return tensor_of(summed), None, None


_CLASSES = {d: type(f"UpsampleNearest{d}D", (UpsampleNearest,),
                    {"node_name": f"UpsampleNearest{d}DBackward0"}) for d in (1, 2, 3)}


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,  # noqa: A002
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Tensor:
    """Resizes the spatial dimensions (all after the first two); minigrad has mode='nearest'."""
    if mode != "nearest":
        raise NotImplementedError(f"minigrad is a subset of PyTorch: interpolate(mode='{mode}') "
                                  "is not implemented; use mode='nearest'")
    spatial = input.ndim - 2
    if spatial not in (1, 2, 3):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {input.ndim}D) for the modes: nearest | linear | "
                                  f"bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
                                  f"(got {mode})")
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined" if size is not None
                         else "either size or scale_factor should be defined")
    if size is not None:
        sizes = [size] * spatial if isinstance(size, int) else list(size)
        factors = [None] * spatial
    else:
        factors = ([float(scale_factor)] * spatial if isinstance(scale_factor, (int, float))
                   else [float(f) for f in scale_factor])
        sizes = [int(np.floor(n * f)) for n, f in zip(input.shape[2:], factors)]
        if recompute_scale_factor:
            factors = [None] * spatial
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"compute_indices_weights_nearest" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return _CLASSES[spatial].apply(input, tuple(sizes), tuple(factors))


def upsample(input: Tensor, size: Any = None, scale_factor: Any = None,  # noqa: A002
             mode: str = "nearest", align_corners: bool | None = None) -> Tensor:
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


class Upsample(Module):
    """F.interpolate as a layer."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = (tuple(float(f) for f in scale_factor)
                             if isinstance(scale_factor, tuple) else
                             float(scale_factor) if scale_factor else None)
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        shown = (f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None
                 else f"size={self.size!r}")
        return shown + f", mode={self.mode!r}"
