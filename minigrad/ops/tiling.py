"""Rearranging copies of the values: repeat, repeat_interleave, roll, flip (fliplr, flipud),
meshgrid, unflatten and sum_to_size. Each value's gradient goes back to where it was copied
from (summed over its copies)."""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..autograd.function import Function
from ..autograd.gradient_ops import sum_to
from ..tensor import Tensor, tensor_of
from .operands import result_like
from .shape import _dims, distinct_dims


class Repeat(Function):
    """tile: the gradient of each copy is summed back onto the original"""
    node_name = "RepeatBackward0"

    @staticmethod
    def forward(ctx, a, repeats):
        ctx.shape, ctx.repeats = a.shape, repeats
        return tensor_of(np.tile(a._data.reshape((1,) * (len(repeats) - a.ndim) + a.shape), repeats))

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's repeat_backward: the added leading dimensions summed one at a time, then
        each repeated dimension split in (repeat, size) and the repeats summed in one sum."""
        lead = len(ctx.repeats) - len(ctx.shape)
        for _ in range(lead):
            grad = grad.sum(0)
        split, summed = [], []
        for r, s in zip(ctx.repeats[lead:], ctx.shape):
            if r != 1:
                summed.append(len(split))
                split.append(r)
            split.append(s)
        return (grad.reshape(split).sum(tuple(summed)) if summed else grad), None


def repeat(a: Tensor, sizes: Sequence[int]) -> Tensor:
    if len(sizes) < a.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    return Repeat.apply(a, tuple(int(s) for s in sizes))


def repeat_interleave(a: Tensor, repeats: Any, dim: int | None = None) -> Tensor:
    """Each element (or slice along `dim`) `repeats` times in a row. A number of repeats is a
    view, an expand and a copy, as PyTorch records it; a tensor of repeats is index_select."""
    if dim is None:
        a, dim = a.reshape(-1), 0
    (d,) = _dims(dim, a.ndim) or (0,)
    if isinstance(repeats, Tensor) and repeats.numel() != 1:
        positions = np.repeat(np.arange(a.shape[d]), repeats._data)
        return a.index_select(d, tensor_of(positions.astype(np.int64)))
    n = int(repeats.item() if isinstance(repeats, Tensor) else repeats)
    expanded = a.unsqueeze(d + 1).expand(*a.shape[:d + 1], n, *a.shape[d + 1:])
    return expanded.clone().view(*a.shape[:d], a.shape[d] * n, *a.shape[d + 1:])


class Roll(Function):
    """shift cyclically: the gradient shifts back"""
    node_name = "RollBackward0"

    @staticmethod
    def forward(ctx, a, shifts, dims):
        ctx.shifts, ctx.dims = shifts, dims
        if dims is None:
            return tensor_of(np.roll(a._data.reshape(-1), shifts).reshape(a.shape))
        return tensor_of(np.roll(a._data, shifts, dims))

    @staticmethod
    def backward(ctx, grad):
        back = tuple(-s for s in ctx.shifts) if isinstance(ctx.shifts, tuple) else -ctx.shifts
        return Roll.apply(grad, back, ctx.dims), None, None


def roll(a: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    if dims is not None:
        dims = _dims(dims, a.ndim)
        shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,) * len(dims)
    return Roll.apply(a, shifts, dims)


class Flip(Function):
    """reverse along dims: the gradient reverses back"""
    node_name = "FlipBackward0"

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims = dims
        return result_like(np.flip(a._data, dims).copy(), a)  # (a 0-d flip gives a scalar)

    @staticmethod
    def backward(ctx, grad):
        return Flip.apply(grad, ctx.dims), None


def flip(a: Tensor, args: tuple, kwargs: dict, method: bool = True) -> Tensor:
    """`a.flip(0, 1)`, `a.flip((0, 1))`, `a.flip(dims=[0])` or `torch.flip(a, (0, 1))`."""
    return Flip.apply(a, distinct_dims(_flip_dims(args, kwargs, method), a.ndim))


def fliplr(a: Tensor) -> Tensor:
    if a.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return Flip.apply(a, (1,))


def flipud(a: Tensor) -> Tensor:
    if a.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return Flip.apply(a, (0,))


def _is_int(value: Any) -> bool:
    return not isinstance(value, bool) and hasattr(value, "__index__")


def _flip_dims(args: tuple, kwargs: dict, method: bool) -> tuple:
    """The dims as PyTorch's argument parser reads them, with its messages: the method takes
    them one by one too (`x.flip(0, 1)`), torch.flip only as a sequence."""
    if kwargs:
        dims = kwargs.pop("dims", None)
        if kwargs or dims is None:
            raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if args:
            raise TypeError("flip() got multiple values for argument 'dims'")
        if not isinstance(dims, (tuple, list)) or not all(map(_is_int, dims)):
            raise TypeError(f"flip(): argument 'dims' must be tuple of ints, not "
                            f"{type(dims).__name__}")
        return tuple(dims)
    if not args:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    if len(args) > 1:
        if not method or isinstance(args[0], (tuple, list)):
            raise TypeError(f"flip() takes {2 - method} positional argument"
                            f"{'s' * (not method)} but {len(args) + 1 - method} were given")
        dims = args
    elif method and _is_int(args[0]):
        dims = args
    elif isinstance(args[0], (tuple, list)):
        dims = args[0]
    else:
        raise TypeError(f"flip(): argument 'dims' (position {2 - method}) must be tuple of ints, "
                        f"not {type(args[0]).__name__}")
    for i, d in enumerate(dims):
        if isinstance(d, bool):
            raise TypeError(f"flip(): argument 'dims' (position {2 - method}) must be tuple of "
                            f"ints, but found element of type bool at pos {i}")
        if not _is_int(d):
            raise TypeError(f"flip(): argument 'dims' failed to unpack the object at pos {i + 1} "
                            f'with error "type must be tuple of ints,but got {type(d).__name__}"')
    return tuple(dims)


_warned_indexing = False


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids: each 1-d tensor viewed along its own dimension and expanded."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    global _warned_indexing
    if indexing is None:
        if not _warned_indexing:  # PyTorch warns once per process
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass "
                          "the indexing argument.", UserWarning, stacklevel=2)
            _warned_indexing = True
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f"{indexing}")
    order = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        order[0], order[1] = 1, 0
    shape = [tensors[i].numel() for i in order]
    grids = []
    for position, t in zip(order, tensors):
        view = [1] * len(tensors)
        view[position] = -1
        grids.append(t.view(view).expand(shape))
    return tuple(grids)


def unflatten(a: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    (d,) = _dims(dim, a.ndim)
    return a.view(*a.shape[:d], *sizes, *a.shape[d + 1:])


def sum_to_size(a: Tensor, size: Sequence[int]) -> Tensor:
    """Sums dimensions so that `a` has `size` (which must expand to a's shape)."""
    size = tuple(int(s) for s in size)
    ok = len(size) <= a.ndim and all(s in (1, t) for s, t in
                                      zip(reversed(size), reversed(a.shape)))
    if not ok:
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(a.shape)}}}.")
    return sum_to(a, size)
