"""torch.testing.assert_close: that two tensors (or numbers, or lists of them) are equal up to
a tolerance chosen by their dtype, with PyTorch's messages when they are not."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .tensor import Tensor

__all__ = ["assert_close"]

# (rtol, atol) by dtype, as PyTorch chooses them; integers and bools must be equal
TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None, equal_nan: bool = False,
                 check_device: bool = True, check_dtype: bool = True, check_layout: bool = True,
                 check_stride: bool = False, msg: str | None = None) -> None:
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {'rtol' if rtol is None else 'atol'}.")
    pairs = list(zip(actual, expected)) if isinstance(actual, (list, tuple)) \
        else [(actual, expected)]
    if isinstance(actual, (list, tuple)) and len(actual) != len(expected):
        raise AssertionError(f"The length of the sequences mismatch: {len(actual)} != "
                             f"{len(expected)}")
    for a, e in pairs:
        problem = _scalar_problem(a, e, rtol, atol, equal_nan) if not isinstance(a, Tensor) \
            else _tensor_problem(a, e, rtol, atol, equal_nan, check_dtype)
        if problem:
            raise AssertionError(msg or problem)


def _scalar_problem(a: Any, e: Any, rtol: float | None, atol: float | None,
                    equal_nan: bool) -> str | None:
    exact = isinstance(a, int) and isinstance(e, int)
    rtol, atol = (0.0, 0.0) if exact and rtol is None else (rtol or 1e-7, atol or 1e-7) \
        if rtol is None else (rtol, atol)
    if a == e or (equal_nan and math.isnan(a) and math.isnan(e)):
        return None
    if not exact and abs(a - e) <= atol + rtol * abs(e):
        return None
    diff = abs(a - e)
    relative = diff / abs(e) if e else math.inf
    return (f"Scalars are not {'equal' if not rtol and not atol else 'close'}!\n\n"
            f"Expected {e} but got {a}.\nAbsolute difference: {diff}{_up_to(atol)}\n"
            f"Relative difference: {relative}{_up_to(rtol)}")


def _up_to(tolerance: float) -> str:
    return f" (up to {tolerance} allowed)" if tolerance else ""


def _tensor_problem(a: Tensor, e: Any, rtol: float | None, atol: float | None,
                    equal_nan: bool, check_dtype: bool) -> str | None:
    if not isinstance(e, Tensor):
        return f"Expected a torch.Tensor, but got {type(e).__name__} for expected."
    if a.shape != e.shape:
        return f"The values for attribute 'shape' do not match: {a.shape} != {e.shape}."
    if check_dtype and a.dtype is not e.dtype:
        return f"The values for attribute 'dtype' do not match: {a.dtype} != {e.dtype}."
    if rtol is None:
        rtol, atol = TOLERANCES.get(e.dtype.name, (0.0, 0.0))
    x, y = a._data, e._data
    if x.dtype.kind in "biu":  # differences of integers, relative ones in float32
        x, y = x.astype(np.int64), y.astype(np.int64)
    close = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan) if x.dtype.kind == "f" \
        else x == y
    if close.all():
        return None
    diff = np.abs(x - y)
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = (diff / np.abs(y)).astype(np.float32 if x.dtype.kind == "i" else x.dtype)
    diff[close], relative[close] = 0, 0  # only the mismatched elements are reported
    header = "equal" if not rtol and not atol else "close"
    return (f"Tensor-likes are not {header}!\n\nMismatched elements: {int((~close).sum())} / "
            f"{close.size} ({(~close).sum() / close.size * 100:.1f}%)\n"
            f"Greatest absolute difference: {_largest(diff, a.shape)}{_up_to(atol)}\n"
            f"Greatest relative difference: {_largest(relative, a.shape)}{_up_to(rtol)}")


def _largest(values: np.ndarray, shape: tuple) -> str:
    """The largest value and where it is (the first NaN, if any), as PyTorch words it."""
    flat = values.reshape(-1)
    nans = np.flatnonzero(np.isnan(flat)) if flat.dtype.kind == "f" else []
    at = int(nans[0]) if len(nans) else int(np.argmax(flat))
    index = tuple(int(i) for i in np.unravel_index(at, shape)) if shape else ()
    return f"{flat[at].item()} at index {index}"
