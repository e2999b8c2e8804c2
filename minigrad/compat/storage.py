"""Where a tensor's values live: `stride()`, `storage_offset()`, `data_ptr()` and `storage()`,
read from the numpy array under it, and `resize_()`, which lays new sizes over it. A view shares its base's storage, as in PyTorch; the
storage is the base array's memory, element by element."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import creation
from .._tensor_ops import _attach
from ..tensor import Tensor

TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
    "only storage class. This should only matter to you if you are using storages directly.  "
    "To access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")
_warned = False


def _root(data: np.ndarray) -> np.ndarray:
    """The array that owns the memory `data` looks into (through numpy's `.base` links, which
    pass through a non-array holder for an as_strided view, as an expand is)."""
    link = data.base
    while link is not None:
        if isinstance(link, np.ndarray):
            data = link
        link = getattr(link, "base", None)
    return data


def stride(t: Tensor, dim: int | None = None) -> Any:
    steps = tuple(s // t._data.itemsize for s in t._data.strides)
    return steps if dim is None else steps[dim]


def storage_offset(t: Tensor) -> int:
    start = _root(t._data).__array_interface__["data"][0]
    return (t._data.__array_interface__["data"][0] - start) // t._data.itemsize


def data_ptr(t: Tensor) -> int:
    return t._data.__array_interface__["data"][0]


def resize_(t: Tensor, sizes: tuple) -> Tensor:
    """New sizes, contiguous, over the storage from the tensor's first element, as in PyTorch
    (Udacity's MNIST lesson flattens a batch so); a larger size gets a larger storage, whose
    new elements PyTorch leaves uninitialised (zeros here)."""
    if t.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = creation._sizes(sizes)
    count = int(np.prod(shape))
    root = _root(t._data)
    if not root.flags.c_contiguous:  # a numpy array in another memory order: no flat storage
        raise RuntimeError("resize_ of a tensor over a non-C-ordered numpy array is not "
                           "supported by minigrad")
    start = storage_offset(t)
    available = root.reshape(-1)[start:]
    if count <= available.size:
        t._data = available[:count].reshape(shape)
    else:
        grown = np.zeros(count, dtype=root.dtype)
        grown[:available.size] = available
        t._data = grown.reshape(shape)
    t._bump_version()
    return t


class TypedStorage:
    """A tensor's storage: its base's elements in memory order (torch.storage.TypedStorage)."""

    def __init__(self, t: Tensor) -> None:
        global _warned
        if not _warned:  # PyTorch warns once per process
            warnings.warn(TYPED_STORAGE_WARNING, UserWarning, stacklevel=3)
            _warned = True
        root = _root(t._data)
        self._values = root.reshape(-1, order="A") if root.flags.forc else root.reshape(-1)
        self._root = root
        self.dtype, self.device = t.dtype, t.device

    def __len__(self) -> int:
        return self._values.size

    def size(self) -> int:
        return len(self)

    def __getitem__(self, i: int) -> Any:
        return self._values[i].item()

    def __setitem__(self, i: Any, value: Any) -> None:
        """Writes into the memory every tensor on this storage reads (Deep Learning with
        PyTorch's `points.storage()[0] = 2.0`); as in PyTorch, no tensor's version changes."""
        if not np.shares_memory(self._values, self._root):
            raise NotImplementedError("minigrad is a subset of PyTorch: writing into the "
                                      "storage of a tensor laid out in no memory order")
        self._values[i] = value.item() if hasattr(value, "item") else value

    def tolist(self) -> list:
        return self._values.tolist()

    def data_ptr(self) -> int:
        return self._values.__array_interface__["data"][0]

    def element_size(self) -> int:
        return self._values.itemsize

    def nbytes(self) -> int:
        return self._values.nbytes

    def __repr__(self) -> str:
        info = f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size " \
               f"{len(self)}]"
        return " " + "\n ".join(str(v) for v in self._values.tolist()) + "\n" + info

    __str__ = __repr__


class _StorageMethods:
    """Where a tensor's values live, which compat gives Tensor (the core computes on numpy
    arrays and has no storage of its own)."""

    def stride(self, dim=None): return stride(self, dim)
    def storage_offset(self): return storage_offset(self)
    def data_ptr(self): return data_ptr(self)
    def storage(self): return TypedStorage(self)
    def resize_(self, *sizes, memory_format=None): return resize_(self, sizes)


_attach(_StorageMethods, Tensor)
