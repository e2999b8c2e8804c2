"""Making tensors: from data, filled with a value, ranges, identities."""
from __future__ import annotations

import builtins
from typing import Any

import warnings

import numpy as np

from . import _dtype
from ._device import check as _check_device
from .fidelity import ranges
from .tensor import Tensor, tensor_of, warn_of_a_list_of_arrays

COPY_CONSTRUCT_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than {call}(sourceTensor).")
NOT_WRITABLE_WARNING = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. "
    "This means writing to this tensor will result in undefined behavior. You may want to copy "
    "the array to protect its data or make it writable before converting it to a tensor. This "
    "type of warning will be suppressed for the rest of this program.")
_warned = {"not writable": False}


def _numpy_dtype_of(data: Any, dtype: _dtype.dtype | None) -> Any:
    if dtype is not None:
        return dtype.numpy
    if isinstance(data, np.ndarray):
        return data.dtype
    if isinstance(data, Tensor):
        return data._data.dtype
    plain = _plain(data)
    probe = np.asarray(plain)
    kinds = probe.dtype.kind
    if (kinds in "uO" or kinds == "f" and probe.size and np.abs(probe).max() >= 2**63) \
            and _has_int_past_int64(plain):  # numpy takes it as uint64, float or an object
        raise ValueError("Overflow when unpacking long long")  # PyTorch refuses it
    if kinds == "b":
        return np.bool_
    if kinds in "iu":
        return np.int64
    return _dtype.get_default_dtype().numpy


def _has_int_past_int64(data: Any) -> bool:
    """An integer int64 cannot hold, among integers only (beside a float, PyTorch infers a
    float dtype and takes the integer as a float)."""
    stack, past = [data], False
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (builtins.float, np.floating)):
            return False
        elif isinstance(item, builtins.int) and not -2**63 <= item < 2**63:
            past = True
    return past


def _plain(data: Any, inside: bool = False) -> Any:
    """Nested lists of numbers, as numpy takes them. A tensor inside a list counts as the
    number it holds, as in PyTorch: `torch.tensor([torch.tensor([1.5])])` has shape [1]."""
    if isinstance(data, Tensor):
        if not inside:
            return data._data
        if data._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._data.reshape(()).item()
    if isinstance(data, (list, tuple)):
        return [_plain(x, inside=True) for x in data]
    return data


def tensor(data: Any, dtype: _dtype.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of `data` (a number, nested lists, or an array)."""
    _check_device(device)
    if isinstance(data, Tensor):  # allowed, but PyTorch steers towards saying what is meant
        warnings.warn(COPY_CONSTRUCT_WARNING.format(call="torch.tensor"), UserWarning,
                      stacklevel=2)
    return copy_of(data, dtype, requires_grad)


def copy_of(data: Any, dtype: _dtype.dtype | None, requires_grad: bool) -> Tensor:
    """torch.tensor's and Tensor.new_tensor's copy, without their warning."""
    try:
        array = None
        if dtype is not None and not isinstance(data, (Tensor, np.ndarray)):
            array = _as_integers(_plain(data), dtype)
        if array is None:
            with np.errstate(over="ignore"):  # PyTorch rounds 1e300 to a float32 inf silently
                array = np.array(_plain(data), dtype=_numpy_dtype_of(data, dtype))
    except ValueError:  # numpy's words for ragged lists; PyTorch's name the dim and lengths
        if not isinstance(data, (list, tuple)):
            raise
        array = _ragged(_plain(data), dtype)
        if array is None:  # ragged in another way: numpy's words
            raise
    if array.dtype.kind == "O":
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    if array.size:
        warn_of_a_list_of_arrays(data, stacklevel=4)
    return tensor_of(array, requires_grad=requires_grad)


def _as_integers(plain: Any, dtype: _dtype.dtype) -> np.ndarray | None:
    """Numbers for an integer dtype, checked as PyTorch checks them: its error for one the
    dtype cannot hold (torch.tensor(300, dtype=torch.int8), where numpy would wrap a float
    around), a negative integer within an unsigned type's range wrapped (-1 is 255), a float
    truncated. None for a float or bool dtype (anything goes: 1e6 is inf in float16) or what
    is not plain numbers: numpy's own conversion then."""
    if dtype.is_floating_point or dtype.name == "bool":
        return None
    numbers = np.asarray(plain)
    if numbers.dtype.kind not in "iuf":
        return None
    bounds = np.iinfo(dtype.numpy)
    if numbers.size:
        low, high = numbers.min(), numbers.max()
        lowest = -bounds.max if bounds.min == 0 and numbers.dtype.kind in "iu" else bounds.min
        if not lowest <= low <= high <= bounds.max:  # False for nan too
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without "
                               "overflow")
    return numbers.astype(dtype.numpy)


def _ragged(data: list, dtype: _dtype.dtype | None) -> np.ndarray | None:
    """Nested lists numpy refused: PyTorch's error for the first list, depth first, whose
    length is not that of the first list at its depth (the shape is read along the first
    elements). With no element at all, PyTorch checks nothing: an empty tensor of that shape."""
    shape, first = [], data
    while isinstance(first, (list, tuple, np.ndarray)):
        shape.append(len(first))
        if not len(first):
            break
        first = first[0]
    if 0 in shape:
        return np.empty(shape, dtype=(dtype or _dtype.get_default_dtype()).numpy)
    stack = [(data, 0)]
    while stack:
        sequence, dim = stack.pop()
        if not isinstance(sequence, (list, tuple, np.ndarray)):
            raise TypeError("not a sequence")
        if len(sequence) != shape[dim]:
            raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} "
                             f"(got {len(sequence)})")
        if dim + 1 < len(shape):
            stack.extend((item, dim + 1) for item in reversed(sequence))
    return None


def as_tensor(data: Any, dtype: _dtype.dtype | None = None, device: Any = None) -> Tensor:
    """As in PyTorch: a tensor itself (converted with `to`, in the graph, for another dtype),
    a numpy array's memory shared when no other dtype is asked for, anything else copied."""
    _check_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype is dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or data.dtype == dtype.numpy):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """Shares memory with `array`, as in PyTorch (which has no negative strides)."""
    _dtype.from_numpy(array.dtype)
    if any(stride < 0 for stride in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around this "
            "by making a copy of your array  with array.copy().) ")
    if not array.flags.writeable and not _warned["not writable"]:  # once, as in PyTorch
        _warned["not writable"] = True
        warnings.warn(NOT_WRITABLE_WARNING, UserWarning, stacklevel=2)
    return tensor_of(array)


def _sizes(size: tuple, keyword: Any = None) -> tuple:
    """The shape from `f(2, 3)`, `f((2, 3))`, `f([2, 3])` or `f(size=(2, 3))`."""
    if not size and keyword is not None:
        size = (keyword,)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _filled(size: tuple, value: Any, dtype: _dtype.dtype | None, requires_grad: bool,
            device: Any = None) -> Tensor:
    _check_device(device)
    d = (dtype or _dtype.get_default_dtype()).numpy
    return tensor_of(np.full(_sizes(size), value, dtype=d), requires_grad=requires_grad)


def zeros(*sizes: Any, size: Any = None, dtype: _dtype.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    return _filled(_sizes(sizes, size), 0, dtype, requires_grad, device)


def ones(*sizes: Any, size: Any = None, dtype: _dtype.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    return _filled(_sizes(sizes, size), 1, dtype, requires_grad, device)


def full(size: Any, fill_value: Any, dtype: _dtype.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    if dtype is None and isinstance(fill_value, builtins.bool):
        dtype = _dtype.bool
    elif dtype is None and isinstance(fill_value, int):
        dtype = _dtype.int64
    fill_value = _dtype.fitting(fill_value, dtype or _dtype.get_default_dtype())
    return _filled((size,), fill_value, dtype, requires_grad, device)


def zeros_like(input: Tensor, dtype: _dtype.dtype | None = None, device: Any = None,  # noqa: A002
               requires_grad: bool = False) -> Tensor:
    return zeros(input.shape, dtype=dtype or input.dtype, device=device,
                 requires_grad=requires_grad)


def ones_like(input: Tensor, dtype: _dtype.dtype | None = None, device: Any = None,  # noqa: A002
              requires_grad: bool = False) -> Tensor:
    return ones(input.shape, dtype=dtype or input.dtype, device=device,
                requires_grad=requires_grad)


def full_like(input: Tensor, fill_value: Any,  # noqa: A002
              dtype: _dtype.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    return full(input.shape, fill_value, dtype=dtype or input.dtype, device=device,
                requires_grad=requires_grad)


def empty(*sizes: Any, size: Any = None, dtype: _dtype.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    return zeros(*sizes, size=size, dtype=dtype, device=device, requires_grad=requires_grad)


def _check_range(start: Any, end: Any, step: Any) -> None:
    """PyTorch's refusals of a range, arange's and range's alike."""
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (np.isfinite(float(start)) and np.isfinite(float(end))):
        raise RuntimeError(f"unsupported range: {_scalar_text(start)} -> {_scalar_text(end)}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def arange(start: Any, end: Any = None, step: Any = 1, dtype: _dtype.dtype | None = None,
           device: Any = None, requires_grad: bool = False) -> Tensor:
    _check_device(device)
    if end is None:
        start, end = 0, start
    if dtype is None:
        every_int = all(isinstance(v, int) for v in (start, end, step))
        dtype = _dtype.int64 if every_int else _dtype.get_default_dtype()
    _check_range(start, end, step)
    if dtype in (_dtype.float32, _dtype.float64):  # the last bits as PyTorch's kernel has them
        values = ranges.arange_like_torch(start, end, step, dtype.numpy)
    else:
        values = np.arange(start, end, step).astype(dtype.numpy)
    return tensor_of(values, requires_grad=requires_grad)


RANGE_DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior is "
    "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
    "in [start, end).")


def deprecated_range(start: Any, end: Any, step: Any = 1, dtype: _dtype.dtype | None = None,
                     device: Any = None, requires_grad: bool = False) -> Tensor:
    """The deprecated torch.range: from start to end with end included, in the default dtype
    whatever the arguments. PyTorch computes `start + i * step` in double (in int64 for integer
    dtypes, from arguments truncated to integers) and casts each value, as here."""
    warnings.warn(RANGE_DEPRECATED, UserWarning, stacklevel=2)
    _check_device(device)
    dtype = dtype or _dtype.get_default_dtype()
    exact = float if dtype.is_floating_point else int
    start, end, step = exact(start), exact(end), exact(step)
    _check_range(start, end, step)
    size = int((end - start) / step + 1) if exact is float else (end - start) // step + 1
    positions = np.arange(size, dtype=np.float64 if exact is float else np.int64)
    return tensor_of((start + positions * step).astype(dtype.numpy), requires_grad=requires_grad)


def _scalar_text(value: Any) -> str:
    """A number as PyTorch's C++ prints a Scalar: `0`, `nan`, `inf`, `0.5`."""
    return str(value) if isinstance(value, int) else f"{float(value):g}"


def linspace(start: float, end: float, steps: int, dtype: _dtype.dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    _check_device(device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtype or _dtype.get_default_dtype()
    if dtype in (_dtype.float32, _dtype.float64):  # the last bits as PyTorch's kernel has them
        values = ranges.linspace_like_torch(start, end, steps, dtype.numpy)
    else:
        values = np.linspace(start, end, steps).astype(dtype.numpy)
    return tensor_of(values, requires_grad=requires_grad)


def eye(n: int, m: int | None = None, dtype: _dtype.dtype | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    _check_device(device)
    d = (dtype or _dtype.get_default_dtype()).numpy
    return tensor_of(np.eye(n, m, dtype=d), requires_grad=requires_grad)
