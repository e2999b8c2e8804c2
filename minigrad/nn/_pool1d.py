"""The one-dimensional pools as PyTorch computes them: the two-dimensional pool over the input
given a height of 1 (UnsqueezeBackward0, the 2-D pool's node, SqueezeBackward1)."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from ._pool import adaptive_avg_pool2d, avg_pool2d


def _check_dims(name: str, input: Tensor) -> None:  # noqa: A002
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for {name})")


def _one(name: str, argument: str, value: Any) -> int:
    """PyTorch's check1d: an int, or a sequence of one int."""
    if isinstance(value, int):
        return value
    if len(value) != 1:
        raise RuntimeError(f"{name}() argument '{argument}' should contain one int "
                           f"(got {len(value)})")
    return value[0]


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """The mean of each window of kernel_size along the last dimension."""
    if stride is None or (not isinstance(stride, int) and len(stride) == 0):
        stride = kernel_size
    _check_dims("avg_pool1d", input)
    kernel, step, pad = (_one("avg_pool1d", argument, value) for argument, value in
                         (("kernel_size", kernel_size), ("stride", stride), ("padding", padding)))
    return avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, step), (0, pad), ceil_mode,
                      count_include_pad).squeeze(-2)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Means over windows that tile the last dimension into output_size."""
    _check_dims("adaptive_avg_pool1d", input)
    size = _one("adaptive_avg_pool1d", "output_size", output_size)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)
