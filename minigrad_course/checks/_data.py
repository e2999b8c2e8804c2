"""What crosses from the learner's process to the judge: data, never objects.

A check's `run` half (in the learner's process: the notebook's kernel, or the grader's sandboxed
worker) turns what the learner's code returned into plain values with `value_data`: None, bools,
exact ints, floats, text, lists, `{"tuple": [...]}`, `{"dict": [[key, value], ...]}`, numpy
arrays, `{"tensor": array, "dtype", "requires_grad", "is_leaf", "grad_fn"}`, or
`{"object": type name}` for anything else. `encode` writes that as JSON and `decode` reads it
back, checking every part, so the judge's half compares numbers, never a learner's object whose
`__eq__`, `__array__` or `__float__` could answer for it. The in-notebook checks make the same
round trip, so they judge exactly as the grader does."""
from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

MAX_ITEMS = 1_000_000  # numbers in one reply, all arrays together
MAX_TEXT = 4_000  # characters kept of a text (a message is cut at 2,000 before)
DTYPES = frozenset({"bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32",
                    "float64"})


class BadData(ValueError):
    """What came from the learner's process is not data of the agreed form."""


def value_data(value: Any, depth: int = 0) -> Any:
    """A learner's value as data (see the module's text). Reads tensors through minigrad's own
    attributes; calls no method the learner's class could have replaced, except reading the
    fields of a Tensor (a subclass's properties are the learner's: so is what it reports)."""
    from minigrad.tensor import Tensor

    if depth > 20:
        return {"object": "nested too deep"}
    kind = type(value)
    if value is None or kind in (bool, int, float):
        return value
    if kind is str:
        return value[:MAX_TEXT]
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, np.integer) and type(value).__module__ == "numpy":
        return int(value)
    if isinstance(value, np.floating) and type(value).__module__ == "numpy":
        return float(value)
    if kind is np.ndarray:
        return _array(value)
    if isinstance(value, Tensor):
        return tensor_data(value)
    if kind in (list, tuple):
        items = [value_data(item, depth + 1) for item in list.__iter__(value)] if kind is list \
            else [value_data(item, depth + 1) for item in tuple.__iter__(value)]
        return items if kind is list else {"tuple": items}
    if kind is dict:
        return {"dict": [[key if type(key) is str else f"<{type(key).__name__}>",
                          value_data(item, depth + 1)] for key, item in dict.items(value)]}
    return {"object": kind.__name__[:100]}


def tensor_data(t: Any) -> dict:
    from minigrad.tensor import Tensor

    data = object.__getattribute__(t, "_data")
    node = Tensor.grad_fn.__get__(t)
    return {"tensor": _array(np.asarray(data)), "dtype": str(np.asarray(data).dtype),
            "requires_grad": bool(Tensor.requires_grad.__get__(t)),
            "is_leaf": node is None, "grad_fn": None if node is None else type(node).__name__}


def _array(array: np.ndarray) -> np.ndarray:
    if array.dtype.name not in DTYPES:
        return np.asarray(array, dtype=float) if array.dtype.kind in "biuf" else \
            np.zeros(0)
    return array.copy()


def is_tensor(data: Any) -> bool:
    return isinstance(data, dict) and "tensor" in data


# ---- the wire ---------------------------------------------------------------------------------

def encode(data: Any) -> str:
    return json.dumps(_plain(data))


def _plain(data: Any) -> Any:
    if isinstance(data, np.ndarray):
        return {"__array__": [data.dtype.name, list(data.shape),
                              [_number(x) for x in data.ravel().tolist()]]}
    if isinstance(data, dict):
        return {str(key): _plain(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(item) for item in data]
    if isinstance(data, float) and not math.isfinite(data):
        return {"__float__": repr(data)}
    return data


def _number(x: Any) -> Any:
    return {"__float__": repr(x)} if isinstance(x, float) and not math.isfinite(x) else x


def decode(text: str | bytes) -> Any:
    """The data `encode` wrote; raises BadData for anything else (in a reply the learner's
    process could have written itself)."""
    try:
        raw = json.loads(text, parse_constant=_refuse)
    except (ValueError, RecursionError) as error:
        raise BadData(f"not JSON ({type(error).__name__})") from None
    budget = [MAX_ITEMS]
    return _restore(raw, budget, 0)


def _refuse(name: str) -> None:
    raise ValueError(f"{name} is written as {{'__float__': ...}}")


def _restore(raw: Any, budget: list[int], depth: int) -> Any:
    if depth > 40:
        raise BadData("nested too deep")
    budget[0] -= 1
    if budget[0] < 0:
        raise BadData("too many values")
    if raw is None or isinstance(raw, (bool, int, float)):
        return raw
    if isinstance(raw, str):
        return raw[:MAX_TEXT]
    if isinstance(raw, list):
        return [_restore(item, budget, depth + 1) for item in raw]
    if not isinstance(raw, dict):
        raise BadData(f"a {type(raw).__name__}")
    if set(raw) == {"__float__"}:
        if raw["__float__"] not in ("nan", "inf", "-inf"):
            raise BadData("a float that is not one")
        return float(raw["__float__"])
    if set(raw) == {"__array__"}:
        return _restore_array(raw["__array__"], budget)
    return {str(key): _restore(value, budget, depth + 1) for key, value in raw.items()}


def _restore_array(raw: Any, budget: list[int]) -> np.ndarray:
    if not (isinstance(raw, list) and len(raw) == 3 and raw[0] in DTYPES and
            isinstance(raw[1], list) and all(type(n) is int and 0 <= n for n in raw[1]) and
            isinstance(raw[2], list)):
        raise BadData("an array of another form")
    size = math.prod(raw[1])
    budget[0] -= size
    if size != len(raw[2]) or budget[0] < 0:
        raise BadData("an array whose size is not its shape's")
    items = [_restore(x, budget, 40) if isinstance(x, dict) else x for x in raw[2]]
    if not all(type(x) in (bool, int, float) for x in items):
        raise BadData("an array of other things than numbers")
    try:
        return np.array(items, dtype=raw[0]).reshape(raw[1])
    except (ValueError, OverflowError, TypeError):
        raise BadData("an array that numpy cannot read") from None


def round_trip(data: Any) -> Any:
    """What the judge would receive: the in-notebook checks judge this, as the grader does."""
    return decode(encode(data))
