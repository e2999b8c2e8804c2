"""How numbers appear inside a diagram: PyTorch's own print format, made to fit in a box."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._printing import printoptions, tensor_repr

SHOWN_IN_FULL = 8  # arrays with up to this many values are written out; bigger ones summarized
MAX_LINES = 6  # a summary longer than this becomes "min … max …"
EDGE_ITEMS = 1  # values shown at each end of a summarized dimension
_PREFIX = "tensor("


def values_text(array: np.ndarray, dtype_name: str) -> str:
    """`tensor([[1., 2.], [3., 4.]])` printed as PyTorch would, without `tensor(` and `)`."""
    with printoptions(precision=4, threshold=SHOWN_IN_FULL, edgeitems=EDGE_ITEMS, linewidth=56):
        text = tensor_repr(array, dtype_name, default_dtype=dtype_name)
    lines = text[len(_PREFIX):-1].split("\n")
    lines = [lines[0]] + [line[len(_PREFIX):] for line in lines[1:]]
    if len(lines) > MAX_LINES:
        return f"min {_scalar(array.min(), dtype_name)}  max {_scalar(array.max(), dtype_name)}"
    return "\n".join(lines)


def _scalar(value: Any, dtype_name: str) -> str:
    return values_text(np.asarray(value), dtype_name)


def tensor_values(t: Any) -> str:
    return values_text(t._data, t.dtype.name)


def grad_text(grad: Any) -> str:
    """`.grad` as shown in a box: its values, or `None` said explicitly."""
    return "None" if grad is None else tensor_values(grad)


def shape_text(shape: Any, dtype_name: str | None = None) -> str:
    """`shape (2, 1)`, `shape (3,)` (a Python tuple, as torch.Size prints its dims), `scalar`,
    plus the dtype when it is not the default float32."""
    dims = tuple(int(s) for s in shape)
    text = f"shape {dims}" if dims else "scalar"
    if dtype_name and dtype_name != "float32":
        text += f" {dtype_name}"
    return text
