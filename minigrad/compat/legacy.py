"""What tutorials written for PyTorch 0.3 still use: `torch.FloatTensor([...])` and friends,
and `torch.autograd.Variable`. In PyTorch today both are thin names for plain tensors; so here.

`torch.FloatTensor(data)` makes a float32 tensor from data, `torch.FloatTensor(2, 3)` an
(uninitialised in PyTorch, zero here) one of that shape, as `torch.Tensor(...)` does in the
default dtype (tensor.legacy_new), and `x.type(torch.FloatTensor)` casts;
`isinstance(x, torch.FloatTensor)` asks for the dtype. Importing this module gives Tensor its
`type()` and `minigrad.autograd` its `Variable` (the core knows neither)."""
from __future__ import annotations

import warnings
from typing import Any

from .. import _dtype, autograd
from .._tensor_ops import _attach
from ..tensor import Tensor, legacy_new


class _LegacyTensorType(type):
    dtype: _dtype.dtype

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return legacy_new(cls.dtype, args, kwargs, typed=True)  # as torch.Tensor(...), in this dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy(name: str, dtype: _dtype.dtype) -> _LegacyTensorType:
    return _LegacyTensorType(name, (), {"dtype": dtype, "__module__": "torch"})


FloatTensor = _legacy("FloatTensor", _dtype.float32)
DoubleTensor = _legacy("DoubleTensor", _dtype.float64)
HalfTensor = _legacy("HalfTensor", _dtype.float16)
LongTensor = _legacy("LongTensor", _dtype.int64)
IntTensor = _legacy("IntTensor", _dtype.int32)
ShortTensor = _legacy("ShortTensor", _dtype.int16)
CharTensor = _legacy("CharTensor", _dtype.int8)
ByteTensor = _legacy("ByteTensor", _dtype.uint8)
BoolTensor = _legacy("BoolTensor", _dtype.bool)

BY_NAME = {f"torch.{t.__name__}": t for t in (FloatTensor, DoubleTensor, HalfTensor, LongTensor,
                                              IntTensor, ShortTensor, CharTensor, ByteTensor,
                                              BoolTensor)}


def dtype_of(spec: Any) -> _dtype.dtype:
    """The dtype that `x.type(spec)` casts to: a dtype, a legacy type, or its name."""
    if isinstance(spec, str):
        if spec not in BY_NAME:
            raise ValueError(f"invalid type: '{spec}'")
        spec = BY_NAME[spec]
    return spec.dtype if isinstance(spec, _LegacyTensorType) else spec


_warned_of_default_tensor_type = False


def set_default_tensor_type(t: Any) -> None:
    """The default float dtype set from a legacy type or its name (`'torch.DoubleTensor'`),
    which PyTorch 2.1 deprecated for set_default_dtype: warned once a process, as PyTorch's C++
    warns."""
    global _warned_of_default_tensor_type
    if isinstance(t, str):
        if t.startswith("torch.cuda."):
            raise TypeError(f"type {t} not available. Torch not compiled with CUDA enabled.")
        t = BY_NAME[t] if t in BY_NAME else __import__(t)  # PyTorch imports what it cannot name
    if not _warned_of_default_tensor_type:
        _warned_of_default_tensor_type = True
        warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please "
                      "use torch.set_default_dtype() and torch.set_default_device() as "
                      "alternatives.", UserWarning, stacklevel=2)
    if not (isinstance(t, _LegacyTensorType) and t.dtype.is_floating_point):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    _dtype.set_default_dtype(t.dtype)


def Variable(data: Tensor, requires_grad: bool = False,  # noqa: N802 - PyTorch's name
             volatile: bool = False) -> Tensor:
    """`Variable(t, requires_grad=True)`: since PyTorch 0.4 a Variable is a tensor; this gives
    a new leaf sharing t's data, as PyTorch does."""
    if not isinstance(data, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
    return data.detach().requires_grad_(requires_grad)


class _LegacyMethods:
    def type(self, dtype=None):
        """With no argument, the type's name (`torch.FloatTensor`); with a dtype, a cast."""
        if dtype is None:
            return f"torch.{self.dtype.tensor_type}"
        return self.to(dtype_of(dtype))


_attach(_LegacyMethods, Tensor)
autograd.Variable = Variable  # PyTorch 0.3's wrapper, a plain tensor now
