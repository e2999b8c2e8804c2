"""`grad_fn._saved_self`, `_saved_other`, `_saved_result`, ...: what a built-in node saved for
its backward, read by PyTorch's names. A Function lists the names (`saved_names` for the
tensors it gave `save_for_backward`, in order; `saved_attributes` for ctx attributes such as
Pow's `exponent`), and its node class gets one read-only property per name.

Reading a saved tensor is unpacking it, as backward does: the same checks, the same errors. An
input comes back as the tensor itself (`y.grad_fn._saved_self is x`); a node's own output comes
back as a new tensor each time, with the node as its grad_fn. Once backward has freed what the
node saved, reading raises ERR_BACKWARD_TWICE, which says so.

`grad_fn._raw_saved_<name>` is the saved tensor itself (PyTorch's SavedTensor), on which
`register_hooks(pack_hook, unpack_hook)` packs it now and unpacks it at each later read, as
saved_tensors_hooks does for everything saved inside it."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor, tensor_of
from .graph import ERR_BACKWARD_TWICE, Node
from .saved_hooks import HookedSavedTensor

ERR_HOOKS_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
    "of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need "
    "to access saved variables after calling backward.")
ERR_HOOKS_TWICE = ("Calling register_hooks on a saved tensor whose hooks have already been set. "
                   "Hint: only one pair of hooks is allowed at a time.")
ERR_HOOKS_NONE = "Calling register_hooks on a saved tensor with value None is forbidden"


def saved_properties(tensor_names: tuple[str, ...], attribute_names: tuple[str, ...]) -> dict:
    """The `_saved_<name>` properties of a node class, by PyTorch's names."""
    properties = {f"_saved_{name}": property(_tensor_reader(i))
                  for i, name in enumerate(tensor_names)}
    properties.update({f"_raw_saved_{name}": property(
        lambda node, position=i: SavedTensor(node, position))
        for i, name in enumerate(tensor_names)})
    properties.update({f"_saved_{name}": property(_attribute_reader(name))
                       for name in attribute_names})
    return properties


class SavedTensor:
    """`grad_fn._raw_saved_<name>`: one tensor a node saved, to give a pair of hooks."""

    __slots__ = ("_node", "_position")

    def __init__(self, node: Node, position: int) -> None:
        self._node, self._position = node, position

    def register_hooks(self, pack_hook: Any, unpack_hook: Any) -> None:
        """Pack the saved tensor now (pack_hook); each read after unpacks it (unpack_hook)."""
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise TypeError("register_hooks(): incompatible function arguments: expected "
                            "(pack_hook: Callable, unpack_hook: Callable)")
        node = self._node
        saved = None if node._saved is None else node._saved[self._position]
        if saved is None:
            if node._freed and self._position not in node._never_saved:
                raise RuntimeError(ERR_HOOKS_FREED)
            raise RuntimeError(ERR_HOOKS_NONE)
        if isinstance(saved, HookedSavedTensor):
            raise RuntimeError(ERR_HOOKS_TWICE)
        # pack_hook gets what is kept: a node's own output kept without history (as in PyTorch)
        hooked = HookedSavedTensor(saved.tensor, node, (pack_hook, unpack_hook))
        if saved.is_own_output:  # unpacked, it gets the node back as its grad_fn
            hooked.was_output, hooked.output_nr = True, saved.output_nr
        node._saved = (*node._saved[:self._position], hooked, *node._saved[self._position + 1:])


def _tensor_reader(position: int) -> Any:
    def read(node: Node) -> Tensor | None:
        if node._saved is None:
            if node._freed and position not in node._never_saved:
                raise RuntimeError(ERR_BACKWARD_TWICE)
            return None  # not saved: the other input needs no gradient
        saved = node._saved[position]
        if saved is None:
            return None
        tensor = saved.unpack(node)
        return tensor if tensor._number_type is None else _as_python_number(tensor)
    return read


def _attribute_reader(name: str) -> Any:
    def read(node: Node) -> Any:  # a number or a tuple: nothing to free
        return getattr(node, name)
    return read


def _as_python_number(tensor: Tensor) -> Tensor:
    """A Python number an op was given (`x * 3`) is kept in the op's dtype; PyTorch shows it
    as the number made a tensor: tensor(3), an int64, for 3; a float64 for 2.5."""
    return tensor_of(np.asarray(tensor._number_type(tensor.item())))
