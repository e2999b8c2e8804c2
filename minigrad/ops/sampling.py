"""Random draws that depend on a tensor: bernoulli(p) and bernoulli_(p). The numbers are
PyTorch's: its CPU kernel draws one uniform number per element from the generator, in the
precision of the probabilities (float32 or float64; float64 for a number p), and gives 1
where it is below p."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..random import _pick
from ..tensor import Tensor
from .operands import zero_gradient


class Bernoulli(Function):
    """0 or 1, drawn: no gradient flows back to the probabilities (zeros, as in PyTorch)"""
    node_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx, p, drawn):
        return Tensor(drawn.astype(p._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad), None


def draw(shape: tuple, p: Any, dtype: Any, generator: Any) -> np.ndarray:
    """Where a uniform number (of `dtype`'s precision) falls below p: the 1s of a draw."""
    return _pick(generator).uniform(tuple(shape), 0.0, 1.0, dtype) < p


def bernoulli(input: Tensor, p: float | None = None, *, generator: Any = None) -> Tensor:
    """1 with probability p (each element's own, from `input`; or the number p), else 0."""
    if p is not None:
        return Tensor(draw(input.shape, p, np.float64, generator).astype(input._data.dtype))
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return Bernoulli.apply(input, draw(input.shape, input._data, input._data.dtype, generator))
