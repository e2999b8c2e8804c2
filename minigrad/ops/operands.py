"""The operands of an element-wise operation: both made tensors of one dtype (a Python number
becomes a shared read-only "wrapped number", as PyTorch calls it), their shapes checked for
broadcasting with PyTorch's message, and a numpy result wrapped as a tensor again."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _grad_mode
from .._dtype import result_type
from ..tensor import Tensor, tensor_of


def as_tensor_pair(a: Any, b: Any, subtraction: bool = False) -> tuple[Tensor, Tensor]:
    """Both operands as tensors of the promoted dtype; a Python number becomes a constant.
    For a subtraction, a bool operand is refused with PyTorch's error (`1 - mask`)."""
    # The common cases first, without type promotion (for what that earns, see
    # benchmarks/tricks.md, row "`as_tensor_pair`'s fast path").
    if isinstance(a, Tensor) and a._data.dtype.kind == "f":
        if isinstance(b, Tensor) and b._data.dtype == a._data.dtype:
            if a._data.shape != b._data.shape:
                _check_operand_shapes(a, b)
            return a, b
        if type(b) in (float, int):  # a number never promotes a float tensor
            return a, wrapped_number(b, a._data.dtype)
    if subtraction and (_is_bool(a) or _is_bool(b)):
        raise RuntimeError(BOOL_SUBTRACTION if not (_is_bool(a) and _is_bool(b)) else
                           BOTH_BOOL_SUBTRACTION)
    dt = result_type(a, b).numpy
    a = a if isinstance(a, Tensor) and a._data.dtype == dt else _constant(a, dt)
    b = b if isinstance(b, Tensor) and b._data.dtype == dt else _constant(b, dt)
    if a._data.shape != b._data.shape:
        _check_operand_shapes(a, b)
    return a, b


def _check_operand_shapes(a: Tensor, b: Tensor) -> None:
    """check_broadcast, but PyTorch's autograd reads each operand's grad_fn before the kernel
    checks the shapes: a no-grad view whose base changed since (autograd/no_grad_view.py)
    refuses first. (Read only once the shapes are refused: nothing on the path that works.)"""
    try:
        check_broadcast(a._data.shape, b._data.shape)
    except RuntimeError:
        if _grad_mode.state.enabled and (a.requires_grad or b.requires_grad):
            a.grad_fn, b.grad_fn  # noqa: B018 - read for the check a view's class puts there
        raise


BOOL_SUBTRACTION = (
    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
    "invert a mask, use the `~` or `logical_not()` operator instead.")
BOTH_BOOL_SUBTRACTION = ("Subtraction, the `-` operator, with two bool tensors is not "
                         "supported. Use the `^` or `logical_xor()` operator instead.")


def _is_bool(x: Any) -> bool:
    return type(x) is bool or (isinstance(x, Tensor) and x._data.dtype.kind == "b")


def refuse_bool(t: Tensor, kernel: str) -> None:
    """PyTorch's error for an operation its CPU kernels leave out for bool tensors."""
    if t._data.dtype.kind == "b":
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement


def type_name(value: Any) -> str:
    """A value's type as PyTorch's argument errors name it (CPython's tp_name): a built-in or a
    program's own class by its name (`list`), an extension's type with its module
    (`numpy.ndarray`)."""
    kind = type(value)
    if kind.__module__ == "builtins" or kind.__flags__ & HEAP_TYPE:
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


def check_broadcast(a: tuple, b: tuple) -> None:
    """PyTorch's error for shapes that do not broadcast, naming the first clash from the right."""
    if len(a) >= len(b) and a[len(a) - len(b):] == b:  # the common case: `x @ w + bias`
        return
    ndim = max(len(a), len(b))
    for i in range(1, ndim + 1):
        sa = a[-i] if i <= len(a) else 1
        sb = b[-i] if i <= len(b) else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b "
                               f"({sb}) at non-singleton dimension {ndim - i}")


def _constant(x: Any, dt: np.dtype) -> Tensor:
    if isinstance(x, Tensor):
        return promoted(x, dt)
    if isinstance(x, (np.ndarray, list, tuple)):
        raise TypeError(f"unsupported operand type: {type(x).__name__}")
    return wrapped_number(x, dt)


def promoted(x: Tensor, dt: np.dtype) -> Tensor:
    """x's values in the dtype an op computes in, for its forward alone: PyTorch's ops promote
    inside the kernel, so the op's node links to x itself and saves x itself (its version is
    checked, its gradient cast back to its dtype by the engine), never a copy with a history of
    its own (ToCopyBackward0). `_promoted_from` tells Function.apply to do so
    (function._apply_promoted); promoted again (addcmul promotes its operands pair by pair), it
    still names the tensor given."""
    values = tensor_of(x._data.astype(dt))
    values._promoted_from = x if x._promoted_from is None else x._promoted_from
    return values


_WRAPPED: dict[tuple, Tensor] = {}


def wrapped_number(x: Any, dt: np.dtype) -> Tensor:
    """A Python number as a 0-d tensor (PyTorch calls it a wrapped number). `y * 0.5` in a loop
    makes the same one each time, so one read-only tensor per value is shared by all the nodes
    that use it: a million-op chain then holds one constant, not a million (for its memory and
    time, see benchmarks/tricks.md, row `wrapped_number`)."""
    key = (type(x), x, dt)
    t = _WRAPPED.get(key)
    if t is None:
        with np.errstate(over="ignore"):  # 1e300 is inf in float32, as in PyTorch: no warning
            t = tensor_of(np.asarray(x, dtype=dt))
        t._number_type = type(x)  # grad_fn._saved_other shows it as PyTorch does
        if isinstance(x, (float, np.floating)) and (math.isnan(x) or x == 0):
            return t  # nan is no key (nan != nan), and -0.0 == 0.0: not shared
        t._data.flags.writeable = False
        t._is_wrapped_number = True
        if t._is_inference:  # first wrapped inside inference_mode, shared outside it too
            t._is_inference = False
        if len(_WRAPPED) >= 1024:  # stays small whatever numbers a program uses
            _WRAPPED.clear()
        _WRAPPED[key] = t
    return t


def result_like(x: Any, like: Tensor) -> Tensor:
    """The result of a numpy computation as a tensor of `like`'s dtype (numpy gives a scalar,
    not a 0-d array, for 0-d inputs). Mostly it is an array of that dtype already, taken as it
    is (`np.asarray` with a dtype costs a recorded op a tenth of a microsecond more)."""
    dtype = like._data.dtype
    if type(x) is np.ndarray and x.dtype is dtype:
        return tensor_of(x)
    return tensor_of(np.asarray(x, dtype=dtype))


def zero_gradient(like: Tensor) -> Tensor:
    """Zeros of `like`'s shape and dtype: the gradient of an input that does not change the
    result (fill_'s old values, sign's input), as a new tensor."""
    return tensor_of(np.zeros(like._data.shape, dtype=like._data.dtype))


def efficient_zero(like: Tensor) -> Tensor:
    """PyTorch's "efficient zero" (a ZeroTensor: sgn's gradient on real numbers): zeros, which
    the backward pass does not add where it reaches a gradient's slot first (the next gradient
    replaces it, its zeros' signs kept); see GraphTask.add_gradient."""
    zeros = zero_gradient(like)
    zeros._efficient_zero = True
    zeros._version_counter  # versioned: a pass on arrays hands it on as a tensor, marked
    return zeros
