"""torch.save and torch.load: tensors, parameters and whatever holds them (a state_dict, a
list, a dict of checkpoints), written with pickle. As PyTorch, each storage is written once, and
each tensor as where it lies in its storage (offset, shape, strides), its dtype and
requires_grad (no history, as PyTorch stores it): tensors saved as views of one storage load
sharing one again, and a view saves its whole storage (the "Serialization semantics" note).
Each loads back as a leaf tensor equal to the one saved (a result that required grad, a
checkpoint's loss, still requires it). The file format is minigrad's own: PyTorch cannot read
it, nor minigrad PyTorch's.

As in PyTorch 2.6 and later, `load` reads only tensors and plain containers unless told
`weights_only=False`: a whole saved model (`torch.save(model, path)`, as older tutorials do)
raises PyTorch's UnpicklingError naming the class, until it is allowed with
`torch.serialization.add_safe_globals([Model])` or the `safe_globals` context manager."""
from __future__ import annotations

import contextlib
import io
import os
import pickle
from collections import Counter, OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import _device, _dtype
from ..tensor import Tensor, tensor_of
from .storage import _root


def _rebuild(storage: bytearray, dtype: str, offset: int, shape: tuple, strides: tuple,
             requires_grad: bool, parameter: bool) -> Tensor:
    """A tensor over `storage`, which every tensor saved from the same storage shares (pickle
    keeps one bytearray for them): changing one changes the others, as in PyTorch."""
    kind = np.dtype(dtype)
    flat = np.frombuffer(storage, dtype=kind)
    values = np.lib.stride_tricks.as_strided(flat[offset:], shape,
                                             tuple(s * kind.itemsize for s in strides))
    if parameter:
        from ..nn.parameter import Parameter
        return Parameter(tensor_of(values), requires_grad=requires_grad)
    return tensor_of(values, requires_grad=requires_grad)


class _Pickler(pickle.Pickler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._storages: dict[int, tuple] = {}  # id of a root array -> (the array, its bytes)

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Tensor):
            from ..nn.parameter import Parameter
            data = obj._data
            root = _root(data)
            if not root.flags.c_contiguous or any(s < 0 for s in data.strides):
                root = data = np.array(data, order="C")  # no flat storage to share: a copy
            if id(root) not in self._storages:  # bytes, not a numpy array: a weights-only
                self._storages[id(root)] = root, bytearray(root.tobytes())  # load refuses those
            storage = self._storages[id(root)][1]
            offset = (data.__array_interface__["data"][0]
                      - root.__array_interface__["data"][0]) // data.itemsize
            strides = tuple(s // data.itemsize for s in data.strides)
            return _rebuild, (storage, data.dtype.str, offset, data.shape, strides,
                              obj.requires_grad, isinstance(obj, Parameter))
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
    """Read back what `save` wrote: tensors and plain containers, or anything (weights_only=False).
    As PyTorch's since 2.6, weights_only is the default; map_location is accepted (all is CPU)."""
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return _unpickle(file, weights_only)
    if isinstance(f, (bytes, bytearray)):
        return _unpickle(io.BytesIO(f), weights_only)
    return _unpickle(f, weights_only)


def _unpickle(file: Any, weights_only: bool) -> Any:
    if not weights_only:
        return pickle.load(file)
    try:
        return _WeightsUnpickler(file).load()
    except pickle.UnpicklingError as error:
        raise pickle.UnpicklingError(_weights_only_message(str(error))) from None


# What a weights-only load may build, as PyTorch's list (torch/_weights_only_unpickler.py) has
# it, with minigrad's own tensor format (`_rebuild` from bytes) in place of torch's. A numpy
# array saved as it is (`torch.save(np_array, path)`, pytorch/examples' time-sequence data) is
# refused, as PyTorch 2.13 refuses it.
_ALLOWED: dict[str, Any] = {
    "collections.OrderedDict": OrderedDict, "collections.Counter": Counter,
    "_codecs.encode": __import__("_codecs").encode, "builtins.bytearray": bytearray,
    "builtins.set": set, "builtins.complex": complex,
    "builtins.bytes": bytes,  # (an empty tensor's values, pickled as bytes())
    f"{__name__}._rebuild": _rebuild,
    "minigrad._dtype.Size": _dtype.Size, "minigrad._device.device": _device.device,
    **{f"minigrad._dtype.{name}": value for name, value in vars(_dtype).items()
       if isinstance(value, _dtype.dtype)},
}
_user_allowed: dict[str, Any] = {}


def _path(obj: Any) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def add_safe_globals(safe_globals: list) -> None:
    """Let a weights-only `load` build these classes and functions too."""
    _user_allowed.update({_path(obj): obj for obj in safe_globals})


def get_safe_globals() -> list:
    return list(_user_allowed.values())


def clear_safe_globals() -> None:
    _user_allowed.clear()


@contextlib.contextmanager
def safe_globals(safe_globals: list) -> Iterator[None]:
    """`with torch.serialization.safe_globals([Model]): torch.load(path)`."""
    before = dict(_user_allowed)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _user_allowed.clear()
        _user_allowed.update(before)


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        module = {"__builtin__": "builtins", "copy_reg": "copyreg"}.get(module, module)
        full_path = f"{module}.{name}"
        if full_path in _ALLOWED:
            return _ALLOWED[full_path]
        if full_path in _user_allowed:
            return _user_allowed[full_path]
        if full_path.startswith("builtins."):
            full_path = full_path[len("builtins."):]
        raise pickle.UnpicklingError(
            f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
            f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
            f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist "
            "this global if you trust this class/function.")


_UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.")
_DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def _weights_only_message(message: str) -> str:
    """PyTorch's wording around the unpickler's error (torch.serialization.load)."""
    if "was not an allowed global by default." in message:
        return ("Weights only load failed. This file can still be loaded, to do so you have two "
                "options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {_UNSAFE_MESSAGE}\n\t(2) Alternatively, to load "
                "with `weights_only=True` please check the recommended steps in the following "
                "error message.\n\tWeightsUnpickler error: " + message + _DOCS_MESSAGE)
    return (f"Weights only load failed. {_UNSAFE_MESSAGE}\nPlease file an issue with the "
            "following so that we can make `weights_only=True` compatible with your use case: "
            "WeightsUnpickler error: \n\n" + message + _DOCS_MESSAGE)
