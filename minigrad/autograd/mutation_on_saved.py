"""`torch.autograd.graph.allow_mutation_on_saved_tensors()`: inside it, a tensor saved for
backward may be changed in place afterwards, and backward still uses the values it saved.

PyTorch clones a saved tensor just before its first in-place change (a dispatch mode that sees
every op that writes). minigrad gets the same values without touching the in-place path: the
context is a pair of saved-tensor hooks that keeps a copy of each saved tensor's values, and
unpacking gives the tensor itself while its version is unchanged, else the copy (the values it
had until that first change). Views share their base's version, so a change through any alias
counts, as PyTorch's storage check does. Only tensors saved inside the context pay the copy."""
from __future__ import annotations

import contextlib
from typing import Iterator

import numpy as np

from ..tensor import Tensor, tensor_of
from .saved_hooks import saved_tensors_hooks

# PyTorch's words (the missing space included)
ERR_OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
               "in which the graph was originally recorded.")
ERR_NESTED = "allow_mutation_on_saved_tensors contexts cannot be nested"

_enabled = False


class _Handle:
    """What the node keeps for one saved tensor: the tensor, its version then, and its values."""

    __slots__ = ("tensor", "version", "values")

    def __init__(self, tensor: Tensor) -> None:
        self.tensor, self.version = tensor, tensor._version
        self.values = np.array(tensor._data, copy=True)


class _AllowMutationOnSavedContext:
    """The context's state (what `with ... as ctx` gives): the handles of the tensors saved in
    it, cleared when it ends."""

    def __init__(self) -> None:
        self.handles: list[_Handle] = []

    def clear(self) -> None:
        for handle in self.handles:  # backward after the context finds nothing to read
            handle.tensor = handle.values = None
        self.handles.clear()


class _swap_with_cloned(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    def __init__(self, ctx: _AllowMutationOnSavedContext) -> None:
        def pack_hook(tensor: Tensor) -> _Handle:
            ctx.handles.append(_Handle(tensor))
            return ctx.handles[-1]

        def unpack_hook(handle: _Handle) -> Tensor:
            if not _enabled or handle.tensor is None:
                raise AssertionError(ERR_OUTSIDE)
            if handle.tensor._version == handle.version:
                return handle.tensor
            return tensor_of(handle.values)

        super().__init__(pack_hook, unpack_hook)


@contextlib.contextmanager
def allow_mutation_on_saved_tensors() -> Iterator[_AllowMutationOnSavedContext]:
    """Context manager under which mutating tensors saved for backward is allowed: forward and
    backward must both run inside it."""
    global _enabled
    ctx = _AllowMutationOnSavedContext()
    with _swap_with_cloned(ctx):
        try:
            if _enabled:
                raise RuntimeError(ERR_NESTED)
            _enabled = True
            yield ctx
        finally:  # (as PyTorch's: a nested attempt's error ends the outer context's state too)
            ctx.clear()
            _enabled = False
