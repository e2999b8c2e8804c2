"""Changing a tensor in place (`x += 1`, `x.mul_(2)`, `y[0] = v`), the way PyTorch does: the
new values are computed by the ordinary operation, written back into the tensor's memory, and
its version goes up, so anything saved of the old values fails its check in backward. A view
changed in place rewrites its base (CopySlices), and the base's other views are read again."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import (
    _grad_mode,
    _tensor_ops,  # (Tensor's methods module: it imports this one, so used at call time)
)
from .autograd.function import _loud, _quiet


def _is_tensor(x: Any) -> bool:
    return isinstance(x, _tensor_ops.TensorOps)


def check_inplace(t) -> None:
    if not _grad_mode._enabled:
        return
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    if t._base is not None and t._base.grad_fn is None and t._base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")


def update(self, ufunc, other, alpha, compute):
    """`w -= lr * w.grad` under no_grad, the commonest in-place operation, done the way numpy
    does it: in one pass, into `self`'s memory. When a graph, a dtype change or broadcasting
    is involved, `_inplace` does it with `compute` instead."""
    if _is_tensor(other):
        plain = other._data.dtype == self._data.dtype and other._data.shape == self._data.shape
        value = other._data
    else:  # a number takes the tensor's dtype first, as it would become a wrapped number
        plain = type(other) in (float, int)
        value = self._data.dtype.type(other) if plain else None
    if (_grad_mode._enabled or not plain or self._data.dtype.kind != "f"
            or not self._data.flags.writeable):
        return inplace(self, compute, other)
    quiet = _quiet()  # no overflow warnings, as in PyTorch
    try:
        ufunc(self._data, value if alpha == 1 else alpha * value, out=self._data)
    finally:
        _loud(quiet)
    self._bump_version()
    return self


def inplace(self, compute, *args):
    """Change `self` in place. The result is computed out of place from a copy of the old
    values that carries the old history; then the values are written back into `self`, its
    version goes up, and its grad_fn becomes the new node. Anything saved earlier that
    held `self` now fails its version check, exactly as in PyTorch."""
    check_inplace(self)
    involved = self.requires_grad or any(_is_tensor(a) and a.requires_grad for a in args)
    if not (_grad_mode._enabled and involved):
        with _grad_mode.no_grad():
            result = compute(self._alias())
        _write(self, result._data)
        return self
    if self._base is not None:
        return _inplace_on_view(self, compute)
    result = compute(_with_history(self))
    _write(self, result._data)
    _take_history(self, result)
    _refresh_views(self)
    return self


def _with_history(t):
    """A copy of `t`'s current values that carries `t`'s current place in the graph."""
    from .tensor import Tensor

    old = Tensor(t._data.copy())
    old.grad_fn, old._output_nr, old._requires_grad = t.grad_fn, t._output_nr, t._requires_grad
    return old


def _inplace_on_view(view, compute):
    """PyTorch's way: changing a view in place rewrites its base. The view's new values are
    written into the base by a CopySlices node, and the view is read back out of the new base."""
    from .ops.indexing import AsStrided, CopySlices

    base = view._base
    positions = _positions_in(base._data, view._data)
    if np.unique(positions).size != positions.size:
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")
    key = np.unravel_index(positions, base.shape)
    result = compute(_with_history(view))
    _check_cast(result._data, view._data)
    new_base = CopySlices.apply(_with_history(base), key, result.to(base.dtype))
    _write(base, new_base._data)  # the version counter is shared: view's goes up too
    _take_history(base, new_base)
    _take_history(view, AsStrided.apply(base, key))
    _refresh_views(base, view)
    return view


def _refresh_views(base, changed=None) -> None:
    """The base's history was rewritten: every other live view of it is now read out of the
    new base (PyTorch regenerates their grad_fn the same way), or its gradient would be stale."""
    from .ops.indexing import AsStrided

    for ref in base.__dict__.get("_views", ()):
        view = ref()
        if view is not None and view is not changed and np.shares_memory(view._data, base._data):
            key = np.unravel_index(_positions_in(base._data, view._data), base.shape)
            _take_history(view, AsStrided.apply(base, key))


def _positions_in(base: np.ndarray, view: np.ndarray) -> np.ndarray:
    """The flat (C-order) index in `base` of each element of `view`, which lies in its memory."""
    def addresses(a: np.ndarray) -> np.ndarray:
        out = np.full(a.shape, a.__array_interface__["data"][0], dtype=np.int64)
        for axis, stride in enumerate(a.strides):
            out += np.arange(a.shape[axis]).reshape([-1] + [1] * (a.ndim - axis - 1)) * stride
        return out

    flat = addresses(base).reshape(-1)
    order = np.argsort(flat, kind="stable")
    return order[np.searchsorted(flat[order], addresses(view))]


def _check_cast(values, target) -> None:
    if values.dtype != target.dtype and not np.can_cast(values.dtype, target.dtype, "same_kind"):
        raise RuntimeError(f"result type {_type_word(values.dtype)} can't be cast to the desired "
                           f"output type {_type_word(target.dtype)}")


def _write(self, values) -> None:
    _check_cast(values, self._data)
    if values.shape != self._data.shape:
        shape = np.broadcast_shapes(values.shape, self._data.shape)
        if shape != self._data.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, self.shape))}] doesn't "
                               f"match the broadcast shape [{', '.join(map(str, shape))}]")
    self._data[...] = values
    self._bump_version()


def _type_word(np_dtype) -> str:
    from ._dtype import from_numpy
    return from_numpy(np_dtype).tensor_type.replace("Tensor", "")


def _take_history(self, result) -> None:
    """`self` becomes the output of `result`'s node (and of anything it had saved of it)."""
    import weakref
    node = result.grad_fn
    if node is None:
        return
    retained = self._retains_grad
    self.grad_fn, self._output_nr = node, result._output_nr
    refs = node._outputs
    if type(refs) is not tuple:
        node._outputs = weakref.ref(self) if refs() is result else refs
    else:
        node._outputs = tuple(weakref.ref(self) if r is not None and r() is result else r
                              for r in refs)
    for saved in node._saved or ():
        if saved is not None and saved.is_own_output:
            saved.tensor._data, saved.counter = self._data, self._version_counter
            saved.version = self._version_counter.value
    if retained:
        self._retains_grad = False
        self.retain_grad()


def setitem(self, key, value) -> None:
    from .ops.indexing import CopySlices, IndexPut, _plain_key, as_positions, is_advanced
    from .tensor import Tensor

    key = tuple(_plain_key(k) for k in key) if isinstance(key, tuple) else _plain_key(key)
    advanced = is_advanced(key)
    positions = as_positions(self.shape, key) if advanced else key
    if _grad_mode._enabled and self.grad_fn is None and self._requires_grad and not advanced:
        # PyTorch writes through a view here (select/slice, then copy_), hence its wording
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")
    if not _is_tensor(value):
        value = Tensor(np.asarray(value, dtype=self._data.dtype))
    elif value.dtype is not self.dtype:
        value = value.to(self.dtype)
    # integers with arrays: PyTorch selects first and index_puts into that view (CopySlices)
    node = IndexPut if advanced and positions is key else CopySlices
    inplace(self, lambda t: node.apply(t, positions, value), value)
