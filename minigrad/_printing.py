"""How a tensor prints: PyTorch's torch/_tensor_str.py, re-implemented on numpy.

The output must equal ``repr(torch_tensor)`` byte for byte, so this follows PyTorch's
algorithm step by step (dense, strided CPU tensors of real dtypes only):

* One ``_Formatter`` looks at every value that will be shown (all of them, or only the
  edge items when the tensor is summarized) and picks a mode: integers (``2.``), fixed
  point (``2.5000``) or scientific (``2.5000e+00``), and one column width.
* Values are formatted as Python floats (exact float64 copies of the stored values),
  with Python's own ``format``, as PyTorch does via ``.item()`` and ``.tolist()``.
* Rows of a 1-D slice wrap at ``linewidth``; higher dims nest with one more space of
  indent per level and ``dim - 1`` newlines between slices.
* Suffixes (``dtype=...``, ``requires_grad=True``, ``grad_fn=<...>``) go after the data,
  on a new line when the current line would get longer than ``linewidth``.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Any, Iterator, Sequence

import numpy as np

from ._dtype import get_default_dtype

_PREFIX = "tensor("


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_OPTS = _PrintOptions()
_PROFILES = {  # precision, threshold, edgeitems, linewidth
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """Same as ``torch.set_printoptions``. As there, ``sci_mode`` is always reset
    (to None, "choose automatically", when not given) and an unknown profile is ignored."""
    if profile in _PROFILES:
        _OPTS.precision, _OPTS.threshold, _OPTS.edgeitems, _OPTS.linewidth = _PROFILES[profile]
    if precision is not None:
        _OPTS.precision = precision
    if threshold is not None:
        _OPTS.threshold = threshold
    if edgeitems is not None:
        _OPTS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTS.linewidth = linewidth
    _OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current options, as keyword arguments for ``set_printoptions``."""
    return dataclasses.asdict(_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Temporarily change the print options, like ``torch._tensor_str.printoptions``."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Chooses int / fixed / scientific mode and the column width for a set of values."""

    def __init__(self, values: np.ndarray) -> None:
        self.floating = values.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.max_width = True, False, 1
        flat = values.reshape(-1)
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(f"{v}"))
            return
        shown = flat[np.isfinite(flat) & (flat != 0)]
        if shown.size == 0:
            return
        magnitude = np.abs(shown).astype(np.float64)  # float64 so float16 cannot overflow
        lo, hi = magnitude.min(), magnitude.max()
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        if _OPTS.sci_mode is None:
            with np.errstate(over="ignore"):  # max / subnormal min may overflow to inf
                self.sci_mode = bool(hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4)
        else:
            self.sci_mode = _OPTS.sci_mode
        p = _OPTS.precision
        if self.sci_mode:
            fmt, extra = f"{{:.{p}e}}", 0
        elif self.int_mode:
            fmt, extra = "{:.0f}", 1  # room for the "." that marks a float
        else:
            fmt, extra = f"{{:.{p}f}}", 0
        for v in shown.tolist():
            self.max_width = max(self.max_width, len(fmt.format(v)) + extra)

    def __call__(self, value: Any) -> str:
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{_OPTS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        else:
            text = f"{value:.{_OPTS.precision}f}"
        return text.rjust(self.max_width)


def _summarized(a: np.ndarray) -> np.ndarray:
    """The values a summarized tensor shows: ``edgeitems`` from each end of every dim."""
    e = _OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:  # note a[-0:] is the whole row, as in PyTorch
        return np.concatenate((a[:e], a[-e:])) if a.shape[0] > 2 * e else a
    if not e:
        return np.empty((0,) * a.ndim, a.dtype)
    n = a.shape[0]
    rows = [*range(e), *range(n - e, n)] if n > 2 * e else range(n)
    return np.stack([_summarized(a[i]) for i in rows])


def _body(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """The bracketed text of ``a``; ``indent`` is the column its "[" is printed at."""
    if a.ndim == 0:
        return fmt(a.item())
    e, n = _OPTS.edgeitems, a.shape[0]
    if a.ndim == 1:
        per_line = max(1, math.floor((_OPTS.linewidth - indent) / (fmt.max_width + 2)))
        if summarize and not e:
            items = ["..."]
        elif summarize and n > 2 * e:
            items = ([fmt(v) for v in a[:e].tolist()] + [" ..."]
                     + [fmt(v) for v in a[-e:].tolist()])
        else:
            items = [fmt(v) for v in a.tolist()]
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    if summarize and n > 2 * e:
        parts = ([_body(a[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."]
                 + [_body(a[i], indent + 1, summarize, fmt) for i in range(n - e, n)])
    else:
        parts = [_body(a[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _add_suffixes(text: str, suffixes: Sequence[str], indent: int) -> str:
    """Append ", suffix" for each suffix, wrapping before one that would pass linewidth."""
    out = [text]
    last_line_len = len(text) - text.rfind("\n") + 1  # PyTorch's count, off by one included
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > _OPTS.linewidth:
            out.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            out.append(", " + suffix)
            last_line_len += len(suffix) + 2
    return "".join(out) + ")"


def tensor_repr(data: np.ndarray, dtype_name: str, suffixes: Sequence[str] = (), *,
                default_dtype: str | None = None) -> str:
    """``repr`` of a CPU tensor holding ``data`` whose torch dtype is ``dtype_name``.

    ``suffixes`` (e.g. ``"requires_grad=True"``) come after the size/dtype ones.
    ``default_dtype`` is the name of the default float dtype; by default it is read
    from ``minigrad._dtype.get_default_dtype()``.
    """
    data = np.asarray(data)
    if default_dtype is None:
        default_dtype = get_default_dtype().name
    indent = len(_PREFIX)
    extra = []
    if data.size == 0:  # no values to tell int64 from float: dtype shown unless default
        if data.ndim != 1:
            extra.append(f"size={tuple(data.shape)}")
        if dtype_name != default_dtype:
            extra.append(f"dtype=torch.{dtype_name}")
        body = "[]"
    else:
        if not _OPTS.edgeitems:
            extra.append(f"size={tuple(data.shape)}")
        if dtype_name not in (default_dtype, "int64", "bool"):
            extra.append(f"dtype=torch.{dtype_name}")
        summarize = data.size > _OPTS.threshold
        fmt = _Formatter(_summarized(data) if summarize else data)
        body = _body(data, indent, summarize, fmt)
    return _add_suffixes(_PREFIX + body, [*extra, *suffixes], indent)
