"""torch.save and torch.load: tensors, parameters and whatever holds them (a state_dict, a
list, a dict of checkpoints), written with pickle. Each tensor is stored as its values, dtype
and requires_grad (no history, as PyTorch stores it), and loads back as a leaf tensor equal to
the one saved. The file format is minigrad's own: PyTorch cannot read it, nor minigrad
PyTorch's."""
from __future__ import annotations

import io
import os
import pickle
from typing import Any

import numpy as np

from ..tensor import Tensor


def _rebuild(values: np.ndarray, requires_grad: bool, parameter: bool) -> Tensor:
    if parameter:
        from ..nn.parameter import Parameter
        return Parameter(Tensor(values), requires_grad=requires_grad)
    return Tensor(values, requires_grad=requires_grad)


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Tensor):
            from ..nn.parameter import Parameter
            return _rebuild, (np.array(obj._data), obj.requires_grad and obj.is_leaf,
                              isinstance(obj, Parameter))
        return NotImplemented


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Write `obj` to `f` (a path or a binary file)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            _Pickler(file, protocol=pickle_protocol).dump(obj)
    else:
        _Pickler(f, protocol=pickle_protocol).dump(obj)


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: bool | None = None, **pickle_load_args: Any
         ) -> Any:
    """Read back what `save` wrote (map_location is accepted: everything is on the CPU)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return pickle.load(file)
    if isinstance(f, (bytes, bytearray)):
        return pickle.load(io.BytesIO(f))
    return pickle.load(f)
