"""The two operations autograd records on gradients themselves, kept in this layer so the
engine needs nothing from ops/ above it (ops/ uses them too: Expand's backward and
`sum_to_size` sum with SumTo, `torch.stack` is Stack after its checks):

- SumTo sums a broadcast gradient back to its input's shape: the one place broadcasting is
  undone (node_call.validate; with create_graph it records what PyTorch's sum_to records: a
  SumBackward0 to a 0-d shape, a SumBackward1 otherwise, and a ViewBackward0 after it when
  broadcasting added leading dimensions).
- Stack puts one gradient per row: grad(is_grads_batched=True) and functional.jacobian stack
  rows that all have one shape and dtype (their input's), so they call it with no checks."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import fidelity
from ..tensor import Tensor, tensor_of
from .function import Function


class SumTo(Function):
    """Sums a broadcast gradient back to `shape`: the one place broadcasting is undone."""
    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        return tensor_of(summed_to(a._data, shape))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape), None


class SumToScalar(SumTo):
    """SumTo to a 0-d shape: PyTorch's sum_to is a full sum there."""
    node_name = "SumBackward0"


def sum_to(a: Tensor, shape: Sequence[int]) -> Tensor:
    """PyTorch's sum_to: a full sum to a 0-d shape; otherwise a sum over the dimensions to
    undo, keeping them, then a view when broadcasting added leading ones."""
    shape = tuple(shape)
    if tuple(a.shape) == shape:
        return a
    if not shape:
        return SumToScalar.apply(a, shape)
    lead = a.dim() - len(shape)
    if lead == 0:
        return SumTo.apply(a, shape)
    return SumTo.apply(a, (1,) * lead + shape).view(shape)


def summed_to(data: np.ndarray, shape: tuple) -> np.ndarray:
    """SumTo's computation on an array: the leading dimensions broadcasting added, and those
    that were 1 in `shape`, summed in PyTorch's order."""
    lead = data.ndim - len(shape)
    if data.shape[lead:] == shape:  # only leading dimensions added (a bias's): no reshape
        return fidelity.sum_like_torch(data, tuple(range(lead)))
    axes = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and data.shape[lead + i] != 1)
    return fidelity.sum_like_torch(data, axes, keepdims=True).reshape(shape)


class Stack(Function):
    """stack: each input gets its slice of the gradient"""
    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        # PyTorch's result is always contiguous; numpy's follows the inputs' layout
        return tensor_of(np.ascontiguousarray(np.stack([t._data for t in tensors], axis=dim)))

    @staticmethod
    def backward(ctx, grad):
        return (None, *(grad.select(ctx.dim, i) for i in range(grad.shape[ctx.dim])))
