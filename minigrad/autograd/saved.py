"""`grad_fn._saved_self`, `_saved_other`, `_saved_result`, ...: what a built-in node saved for
its backward, read by PyTorch's names. A Function lists the names (`saved_names` for the
tensors it gave `save_for_backward`, in order; `saved_attributes` for ctx attributes such as
Pow's `exponent`), and its node class gets one read-only property per name.

Reading a saved tensor is unpacking it, as backward does: the same checks, the same errors. An
input comes back as the tensor itself (`y.grad_fn._saved_self is x`); a node's own output comes
back as a new tensor each time, with the node as its grad_fn. Once backward has freed what the
node saved, reading raises ERR_BACKWARD_TWICE, which says so."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor
from .graph import ERR_BACKWARD_TWICE, Node


def saved_properties(tensor_names: tuple[str, ...], attribute_names: tuple[str, ...]) -> dict:
    """The `_saved_<name>` properties of a node class, by PyTorch's names."""
    properties = {f"_saved_{name}": property(_tensor_reader(i))
                  for i, name in enumerate(tensor_names)}
    properties.update({f"_saved_{name}": property(_attribute_reader(name))
                       for name in attribute_names})
    return properties


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
    return Tensor(np.asarray(tensor._number_type(tensor.item())))
