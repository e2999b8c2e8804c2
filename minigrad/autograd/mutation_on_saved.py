"""`torch.autograd.graph.allow_mutation_on_saved_tensors()`: inside it, a tensor saved for
backward may be changed in place afterwards, and backward still uses the values it saved.

PyTorch's context is a pair of saved-tensor hooks and a dispatch mode that sees every op that
writes. A tensor saved is filed under its memory's address and its version then (_get_sid); an
op about to write into a tensor whose address and version are those of a saved one clones the
saved one first, and backward reads the clone. So a saved tensor is read changed when the write
went through another address (a view at an offset: `y.mul_(3)` with `y[1:]` saved) or came
after another change (the version moved): "almost definitely a bug", in PyTorch's own words,
but its behaviour, which minigrad's matches. Here the pack hook keeps a copy of the values
(what a clone at the first write would hold, as that write is the first change), and
Tensor._bump_version tells the context (tensor.before_write) of each write, with the memory written."""
from __future__ import annotations

import contextlib
from collections import defaultdict
from typing import Iterator

import numpy as np

from ..tensor import Tensor, tensor_of, watch_writes
from .saved_hooks import saved_tensors_hooks

# PyTorch's words (the missing space included)
ERR_OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
               "in which the graph was originally recorded.")
ERR_NESTED = "allow_mutation_on_saved_tensors contexts cannot be nested"

_enabled = False


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


class _Handle:
    """What the node keeps for one saved tensor: the tensor, its values then, and whether a
    write at its address and version has happened since (then backward reads the values)."""

    __slots__ = ("tensor", "values", "cloned")

    def __init__(self, tensor: Tensor) -> None:
        self.tensor, self.cloned = tensor, False
        self.values = np.array(tensor._data, copy=True)


class _AllowMutationOnSavedContext:
    """The context's state (what `with ... as ctx` gives): the handles of the tensors saved in
    it, by address and version, cleared when it ends."""

    def __init__(self) -> None:
        self.handles: dict[tuple[int, int], list[_Handle]] = defaultdict(list)

    def before_write(self, tensor: Tensor, written: np.ndarray) -> None:
        for handle in self.handles.get((_address(written), tensor._version), ()):
            handle.cloned = True

    def clear(self) -> None:
        for handles in self.handles.values():  # backward after the context finds nothing
            for handle in handles:
                handle.tensor = handle.values = None
        self.handles.clear()


class _swap_with_cloned(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    def __init__(self, ctx: _AllowMutationOnSavedContext) -> None:
        def pack_hook(tensor: Tensor) -> _Handle:
            handle = _Handle(tensor)
            ctx.handles[(_address(tensor._data), tensor._version)].append(handle)
            return handle

        def unpack_hook(handle: _Handle) -> Tensor:
            if not _enabled or handle.tensor is None:
                raise AssertionError(ERR_OUTSIDE)
            return tensor_of(handle.values) if handle.cloned else handle.tensor

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
            watch_writes(ctx.before_write)
            yield ctx
        finally:  # (as PyTorch's: a nested attempt's error ends the outer context's state too)
            ctx.clear()
            _enabled = False
            watch_writes(None)
