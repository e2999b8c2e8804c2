"""adaptive_max_pool2d (and 1d, PyTorch's 2d on an unsqueezed input): the largest value of each
of the windows that tile the input into output_size (output i covers [floor(i·n/out),
ceil((i+1)·n/out)), as adaptive_avg_pool2d's), the first largest in reading order, or the last
NaN, as PyTorch's kernel scans; the gradient goes to the element each window picked."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..tensor import Tensor, tensor_of
from ._pool import MaxPool2DWithIndicesBackward, _adaptive_bounds


class AdaptiveMaxPool2D(Function):
    node_name = "AdaptiveMaxPool2DBackward0"
    saved_names = ("self", "result1")

    @staticmethod
    def forward(ctx, x, out):
        data = x._data
        (rows0, rows1), (cols0, cols1) = (_adaptive_bounds(n, m)
                                          for n, m in zip(data.shape[-2:], out))
        width = data.shape[-1]
        values = np.empty((*data.shape[:-2], *out), data.dtype)
        indices = np.empty((*data.shape[:-2], *out), np.int64)
        for i in range(out[0]):
            for j in range(out[1]):
                window = data[..., rows0[i]:rows1[i], cols0[j]:cols1[j]]
                flat = window.reshape(*window.shape[:-2], -1)
                picked = flat.argmax(axis=-1)
                if data.dtype.kind == "f":  # a NaN wins, the last one scanned
                    nans = np.isnan(flat)
                    last_nan = flat.shape[-1] - 1 - nans[..., ::-1].argmax(axis=-1)
                    picked = np.where(nans.any(axis=-1), last_nan, picked)
                values[..., i, j] = np.take_along_axis(flat, picked[..., None], -1)[..., 0]
                span = cols1[j] - cols0[j]
                indices[..., i, j] = (rows0[i] + picked // span) * width + cols0[j] + picked % span
        result = tensor_of(indices)
        ctx.mark_non_differentiable(result)
        ctx.save_for_backward(x, result)
        return tensor_of(values), result

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        x, indices = ctx.saved_tensors
        return AdaptiveMaxPool2DBackward.apply(grad, x, indices), None


class AdaptiveMaxPool2DBackward(MaxPool2DWithIndicesBackward):
    node_name = "AdaptiveMaxPool2DBackwardBackward0"


def _output_size(name: str, input: Tensor, output_size: Any, dims: int) -> tuple:
    if isinstance(output_size, int):
        return (output_size,) * dims
    if len(input.shape) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return tuple(n if n is not None else size
                 for n, size in zip(output_size, input.shape[-len(output_size):]))


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    out = _output_size("adaptive_max_pool2d", input, output_size, 2)
    if input.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: "
                           f"{list(input.shape)}")
    for dim in range(1, input.ndim):
        if input.shape[dim] == 0:
            raise RuntimeError("adaptive_max_pool2d(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but input has sizes {list(input.shape)} "
                               f"with dimension {dim} being empty")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"adaptive_max_pool2d" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    values, indices = AdaptiveMaxPool2D.apply(input, out)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """adaptive_max_pool2d of the input with a row dimension of 1, squeezed back."""
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor "
                           "for argument #1 'self' (while checking arguments for "
                           "adaptive_max_pool1d)")
    (size,) = _output_size("adaptive_max_pool1d", input, output_size, 1)
    values, indices = adaptive_max_pool2d(input.unsqueeze(-2), (1, size), True)
    values, indices = values.squeeze(-2), indices.squeeze(-2)
    return (values, indices) if return_indices else values
