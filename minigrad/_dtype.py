"""PyTorch's dtype objects and torch.Size, backed by numpy dtypes."""
from __future__ import annotations

import builtins

import numpy as np


class dtype:  # noqa: N801 - PyTorch's name
    """A tensor element type; prints as PyTorch does (`torch.float32`)."""

    def __init__(self, name: str, np_dtype: type, tensor_type: str, cpp_name: str) -> None:
        self.name = name
        self.numpy = np.dtype(np_dtype)
        self.tensor_type = tensor_type  # what Tensor.type() answers, e.g. torch.FloatTensor
        self.scalar_name = tensor_type[: -len("Tensor")]  # PyTorch's ScalarType, e.g. Float
        self.cpp_name = cpp_name  # the C++ type some of PyTorch's messages name, e.g. 'long int'

    @property
    def is_floating_point(self) -> bool:
        return self.numpy.kind == "f"

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


float16 = dtype("float16", np.float16, "HalfTensor", "c10::Half")
float32 = dtype("float32", np.float32, "FloatTensor", "float")
float64 = dtype("float64", np.float64, "DoubleTensor", "double")
int8 = dtype("int8", np.int8, "CharTensor", "signed char")
uint8 = dtype("uint8", np.uint8, "ByteTensor", "unsigned char")
int16 = dtype("int16", np.int16, "ShortTensor", "short int")
int32 = dtype("int32", np.int32, "IntTensor", "int")
int64 = dtype("int64", np.int64, "LongTensor", "long int")
bool = dtype("bool", np.bool_, "BoolTensor", "bool")  # noqa: A001 - PyTorch's name

_ALL = (float16, float32, float64, int8, uint8, int16, int32, int64, bool)
_BY_NUMPY = {d.numpy: d for d in _ALL}


def from_numpy(np_dtype: np.dtype) -> dtype:
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type {np.dtype(np_dtype)}. The only "
                        "supported types are: float64, float32, float16, int64, int32, int16, "
                        "int8, uint8, and bool.") from None


_default_float = float32


def get_default_dtype() -> dtype:
    return _default_float


def set_default_dtype(d: dtype) -> None:
    global _default_float
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


def _category(d: dtype) -> int:
    """0 for bool, 1 for integers, 2 for floating point: PyTorch's promotion categories."""
    return 0 if d is bool else (2 if d.is_floating_point else 1)


def result_type(*operands: object) -> dtype:
    """PyTorch's type promotion: the highest category wins; within it, tensors with
    dimensions outrank zero-dim tensors, which outrank Python numbers."""
    best: tuple[int, int] | None = None
    chosen: list[dtype] = []
    for x in operands:
        if isinstance(getattr(x, "dtype", None), dtype):  # a tensor (Tensor sits above this)
            d, rank = x.dtype, (2 if x.ndim else 1)
        elif isinstance(x, builtins.bool):
            d, rank = bool, 0
        elif isinstance(x, (builtins.int, np.integer)):  # numpy's bool_ counts as a float
            d, rank = int64, 0
        else:
            d, rank = _default_float, 0
        key = (_category(d), rank)
        if best is None or key > best:
            best, chosen = key, [d]
        elif key == best:
            chosen.append(d)
    out = chosen[0].numpy
    for d in chosen[1:]:
        out = np.promote_types(out, d.numpy)
    return from_numpy(out)



class Size(tuple):
    """A tensor's shape: a tuple that prints as `torch.Size([2, 3])`."""

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    def __getitem__(self, key: object) -> object:
        item = super().__getitem__(key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other: tuple) -> "Size":
        return Size(tuple(self) + tuple(other))

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


float = float32  # noqa: A001 - PyTorch's aliases
double = float64
half = float16
long = int64
short = int16
int = int32  # noqa: A001


# The C++ type PyTorch's overflow message names, by dtype name.
_CPP_TYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int",
              "int64": "int64_t", "float16": "c10::Half", "float32": "float",
              "float64": "double"}


def fitting(value: object, dtype: dtype) -> object:
    """`value` (a number or a 0-d tensor) to write into a tensor of `dtype` when it fits, else
    PyTorch's error, not numpy's wrap-around (300 written into int8 is an error, not 44).
    As PyTorch's c10 check: an integer type takes values within its range (a fraction past
    either end does not fit: 255.9 for uint8), a float type any finite value within its range
    and inf or nan, bool anything; and an unsigned type a negative integer down to minus its
    maximum, wrapped (returned as the number written: -1 is 255 in uint8)."""
    number = value.item() if hasattr(value, "item") else value  # a 0-d tensor's number
    if dtype.name == "bool" or isinstance(number, (builtins.bool, np.bool_)):
        return value
    if dtype.is_floating_point:
        limit = builtins.float(np.finfo(dtype.numpy).max)
        fits = not np.isfinite(number) or -limit <= number <= limit
    else:
        bounds = np.iinfo(dtype.numpy)
        fits = builtins.bool(bounds.min <= number <= bounds.max)  # False for nan too
        if not fits and bounds.min == 0 and isinstance(number, builtins.int) \
                and 0 < -number <= bounds.max:
            return value if value is not number else number + bounds.max + 1
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {_CPP_TYPES[dtype.name]} "
                           "without overflow")
    return value
