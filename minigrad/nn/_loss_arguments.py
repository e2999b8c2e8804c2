"""A loss's arguments as PyTorch reads them: `reduction` (torch.nn._reduction: 'none', 'mean'
or 'sum', or the deprecated size_average and reduce flags, which override it with a warning),
the shape an input and a target broadcast to, and the arguments a kernel cannot differentiate."""
from __future__ import annotations

import warnings

from .. import _grad_mode
from ..tensor import Tensor


def check_reduction(reduction: str) -> str:
    """reduction itself, or PyTorch's error for a name it does not know."""
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def legacy_reduction(size_average: bool | None, reduce: bool | None, reduction: str,
           stacklevel: int = 3) -> str:
    """reduction, unless size_average or reduce is given: then what they mean ('mean' for
    both true, 'sum' for reduce alone, 'none' without reduce), with PyTorch's warning."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=stacklevel)
    return reduction


def broadcast_shape(a: tuple, b: tuple) -> tuple:
    """The shape two tensors broadcast to, or PyTorch's error when they do not."""
    ndim = max(len(a), len(b))
    a, b = (1,) * (ndim - len(a)) + tuple(a), (1,) * (ndim - len(b)) + tuple(b)
    for i, (size_a, size_b) in enumerate(zip(a, b)):
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError(f"The size of tensor a ({size_a}) must match the size of tensor "
                               f"b ({size_b}) at non-singleton dimension {i}")
    return tuple(size_b if size_a == 1 else size_a for size_a, size_b in zip(a, b))


def refuse_grad_of(argument: Tensor | None, name: str, function: str) -> None:
    """PyTorch's loss kernels have no derivative for their weights (nor some for their
    targets): such an argument that requires grad is refused while grad mode is on, whatever
    the other inputs."""
    if argument is not None and argument.requires_grad and _grad_mode.is_grad_enabled():
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to "
                           f"argument '{name}'. This input cannot have requires_grad True.")
