"""Changing a tensor in place (`x += 1`, `x.mul_(2)`, `y[0] = v`), the way PyTorch does: the
new values are computed by the ordinary operation, written back into the tensor's memory, and
its version goes up, so anything saved of the old values fails its check in backward. A view
changed in place rewrites its base (CopySlices), and the base's other views are read again."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _dtype, _grad_mode
from .autograd.custom_view import CUSTOM_FUNCTION_VIEW
from .autograd.graph import ERR_LEAF_IN_PLACE, forward_name, replace_output
from .autograd.no_grad_view import no_grad_view_advice, no_grad_view_words
from .autograd.numpy_quiet import _QUIET, _numpy_errors
from .ops import pointwise
from .ops.operands import as_tensor_pair
from .ops.fill import Zero
from .ops.indexing import (ERR_INTERNAL_OVERLAP, AsStrided, CopySlices, IndexPut,
                           WriteThroughExpanded, _plain_key, as_positions, check_advanced_key,
                           index, is_advanced)
from .tensor import ERR_INFERENCE_IN_PLACE, Tensor, tensor_of, writes_watched

VIEW_OF_LEAF_IN_PLACE = ("a view of a leaf Variable that requires grad is being used in an "
                         "in-place operation.")


def no_grad_view_error(t: Tensor, op: str | None = None) -> RuntimeError:
    """PyTorch's error for an in-place change, with grad mode on, of a view made under no_grad
    (or of a view of one: `op` names the view operation that made it)."""
    if op is None and t._own_node() is not None:
        op = forward_name(t._own_node().name())
    made_in, now, block = no_grad_view_words(t)
    what = (f"created in {made_in} and is being modified inplace {now}. "
            f"{no_grad_view_advice(block)}")
    if op is None:
        return RuntimeError(f"A view was {what}")
    return RuntimeError(f"Output 0 of {op} is a view of a view which was {what}")


def check_inplace(t: Tensor) -> None:
    """PyTorch's refusals of an in-place change, before anything is written. (An inference
    tensor's is Tensor._bump_version's, after: PyTorch writes, then fails to count it.)"""
    if not _grad_mode.state.enabled:
        return
    if t._multi_output_view and t.requires_grad:
        raise RuntimeError(_multi_output_view_message(t))
    if t._custom_function_view and t.requires_grad:
        raise RuntimeError(f"Output {t._output_nr} of {forward_name(t._own_node().name())} is a "
                           f"view and is being modified inplace. {CUSTOM_FUNCTION_VIEW}")
    if t._made_in_no_grad and t.requires_grad:
        raise no_grad_view_error(t)
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError(ERR_LEAF_IN_PLACE)
    if t._base is not None and t._base.grad_fn is None and t._base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF_IN_PLACE)


def shares_memory_within(t: Tensor) -> bool:
    """Whether elements of `t` share memory: an expanded tensor (stride 0 along a dimension of
    more than one element), the one kind of overlap PyTorch detects. (numpy gives an empty
    array's dimensions stride 0: no element there, so no overlap.)"""
    data = t._data
    return 0 in data.strides and data.size > 0 and any(stride == 0 and size > 1
                                     for stride, size in zip(data.strides, data.shape))


def check_no_overlap(t: Tensor) -> None:
    """PyTorch refuses to write into an expanded tensor (which value would win?), except with
    fill_ and zero_, where every element gets the same value."""
    if shares_memory_within(t):
        raise RuntimeError(ERR_INTERNAL_OVERLAP)


def _multi_output_view_message(view: Tensor) -> str:
    """PyTorch's refusal to change in place one of several views made by one node (unbind's
    rows): each view's gradient is a slice of one stacked gradient, which an in-place change of
    one of them cannot rewrite."""
    node = view._own_node()  # (its grad_fn may refuse to be read: multi_output_view.py)
    return (f"Output {view._output_nr} of {forward_name(node.name())} is a view and is "
            "being modified inplace. This view is the output of a function that returns multiple "
            "views. Such functions do not allow the output views to be modified inplace. You "
            "should replace the inplace operation by an out-of-place one.")


# What add_, sub_, mul_ and div_ do to the values, as the numpy function that can write its
# result straight into the tensor's memory (see `update`).
_UFUNCS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}

ERR_PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation.")


def update(t: Tensor, op: Any, other: Any, alpha: Any = 1) -> Tensor:
    """`t.add_(other, alpha=alpha)` and the like, where `op` is the out-of-place method
    (`Tensor.add`). In general that is `inplace(t, op)`. But `w -= lr * w.grad` under no_grad,
    the commonest in-place operation (every optimizer step), has no graph to record, nothing
    PyTorch checks (its checks are for a change that records) and nothing to cast or
    broadcast: numpy then does it in one pass into `t`'s memory, with no result tensor made and
    copied back (for the time it saves, see benchmarks/tricks.md, row `update`)."""
    data = t._data
    if type(other) is Tensor:
        value = other._data
        # the same dtype and shape, and no memory shared but in full (`p -= p`): no cast, no
        # broadcast, nothing read that was written (`value` is most often a fresh array, as
        # `lr * p.grad` is, of which `t` cannot be a view)
        plain = value.dtype is data.dtype and value.shape == data.shape and (
            (value.base is None and data.base is not value)
            or not np.may_share_memory(data, value))
    elif isinstance(other, Tensor):  # (a subclass: a custom Function's view)
        value, plain = None, False
    else:  # a number takes the tensor's dtype first, as it would become a wrapped number
        plain = type(other) in (float, int)
        value = data.dtype.type(other) if plain else None
    if (_grad_mode.state.enabled or not plain or data.dtype.kind != "f"
            or not data.flags.carray or t._is_inference or type(alpha) not in (int, float)):
        # (carray: writeable and C-contiguous, so never an expanded tensor, which inplace
        # refuses to write into)
        return _update_generally(t, op, other, alpha)
    quiet = _numpy_errors.set(_QUIET)  # no overflow warnings, as in PyTorch: as in every forward
    try:
        if alpha != 1:  # add_ and sub_: one fused multiply-add, as the recorded way
            data[...] = pointwise.plus_scaled(data, value, alpha if op.__name__ == "add"
                                              else -alpha)
        else:
            _UFUNCS[op.__name__](data, value, out=data)
    finally:
        _numpy_errors.reset(quiet)
    t._bump_version()
    if t._counter.views is not None:  # (a weight with views made earlier)
        views_read_again(t)
    return t


def _update_generally(t: Tensor, op: Any, other: Any, alpha: Any) -> Tensor:
    """`update`'s general way: `inplace`, which reads `other` element by element."""
    reads = other if isinstance(other, Tensor) else None
    if type(alpha) is int and alpha == 1:  # (True and 1.0 go to add's alpha_check)
        return inplace(t, lambda x: op(x, other), other, reads=reads)
    if type(alpha) is not int:  # PyTorch's order: sub's bool check, the cast, alpha_check
        if op.__name__ == "sub":
            as_tensor_pair(t, other, True)
        _check_cast(np.empty(0, _dtype.result_type(t, other).numpy), t._data)
    return inplace(t, lambda x: op(x, other, alpha=alpha), other, reads=reads)


def overlaps_in_part(a: np.ndarray, b: np.ndarray) -> bool:
    """PyTorch's test (get_overlap_status, PARTIAL): both arrays dense (their elements fill
    their span of memory), and either their spans differ but intersect, or they are the same
    span read in another order (`a` and `a.t()`). Anything not dense is too hard to tell, and
    PyTorch lets it be."""
    if a is b or not np.may_share_memory(a, b) or not (_dense(a) and _dense(b)):
        return False  # (may_share_memory compares the spans alone: a quick no, most often)
    a_begin, b_begin = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    a_end, b_end = a_begin + a.nbytes, b_begin + b.nbytes
    if (a_begin, a_end) == (b_begin, b_end):
        return a.strides != b.strides
    return a_begin < b_end and b_begin < a_end


def _dense(a: np.ndarray) -> bool:
    """Whether `a`'s elements fill one span of memory with no gap (PyTorch's
    is_non_overlapping_and_dense; a negative stride, which PyTorch never has, counts as no)."""
    expected = a.itemsize
    for stride, size in sorted((s, n) for s, n in zip(a.strides, a.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def zero(t: Tensor) -> Tensor:
    """`t.zero_()`. Recorded (grad mode on and `t` requires grad), it is an operation like any
    other: ZeroBackward0. Unrecorded, as `p.grad.zero_()` is in a training loop that resets its
    gradients that way (notebook 04), the zeros are written straight into `t`'s memory: no
    node, no tensor of zeros made and copied over (benchmarks/tricks.md, `_inplace.zero`). A
    tensor outside any graph and of its own memory (a `.grad`) has nothing to check."""
    if t.grad_fn is not None or t._requires_grad or t._base is not None:
        if _grad_mode.state.enabled and (t._requires_grad or t.grad_fn is not None):
            return inplace(t, lambda x: Zero.apply(x, 0), same_value=True)
        check_inplace(t)  # a view made under no_grad refuses, even after requires_grad_(False)
        t._data.fill(0)
        t._bump_version()
        views_read_again(t)
        return t
    t._data.fill(0)
    t._bump_version()
    if t._counter.views is not None:  # (a detached alias of a tensor with views)
        views_read_again(t)
    return t


def inplace(t: Tensor, compute: Any, *args: Any, same_value: bool = False,
            reads: Tensor | None = None, written: np.ndarray | None = None) -> Tensor:
    """Change `t` in place. The result is computed out of place from a copy of the old
    values that carries the old history; then the values are written back into `t`, its
    version goes up, and its grad_fn becomes the new node. Anything saved earlier that
    held `t` now fails its version check, exactly as in PyTorch. `same_value`: the change
    writes one value everywhere (fill_, zero_), which an expanded tensor takes too. `reads`:
    a tensor read element by element beside `t` (`a -= b`, `a.copy_(b)`), which PyTorch
    refuses when it shares part of the memory written (`a[1:] += a[:-1]`: which values would
    be read?), after autograd's refusals, an expanded `t`'s and an inference tensor's.
    `written`: the view of `t` PyTorch writes through (`t[1:] = v`), when it is not `t`."""
    check_inplace(t)
    if not same_value:
        check_no_overlap(t)
    involved = t.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args)
    recorded = involved and _grad_mode.state.enabled
    if t._is_inference and recorded and not _grad_mode.state.inference:
        raise RuntimeError(ERR_INFERENCE_IN_PLACE)  # to be recorded: refused before writing
    if reads is not None and overlaps_in_part(t._data, reads._data):
        raise RuntimeError(ERR_PARTIAL_OVERLAP)
    if not recorded:
        with _grad_mode.no_grad():
            result = compute(t._alias())
        _write(t, result._data, written)
        views_read_again(t)
        return t
    if t._base is not None:
        return _inplace_on_view(t, compute, written)
    result = compute(_with_history(t))
    _write(t, result._data, written)
    _take_history(t, result)
    _refresh_views(t)
    return t


def reshape_in_place(t: Tensor, make: Any) -> Tensor:
    """`t.unsqueeze_(0)`, `t.squeeze_()`, `t.t_()`: `t` itself becomes `make(t)`, a view of its own
    memory with a new shape. Recorded, `make`'s node (an in-place view node) takes `t`'s place
    in the graph, as an in-place op's does; the version goes up, as PyTorch counts it, so what
    was saved of the old shape fails its check in backward. A view stays a view of its base."""
    check_inplace(t)
    with _grad_mode.no_grad():
        reshaped = make(t._alias())._data  # first: a bad dimension fails before any change
    if _grad_mode.state.enabled and t.requires_grad:
        retained, t._retains_grad = t._retains_grad, False  # PyTorch keeps a retained gradient
        _take_history(t, make(_with_history(t)))            # where it was: of the old shape
        t._retains_grad = retained
    t._data = reshaped
    t._bump_version()
    return t


def _with_history(t: Tensor) -> Tensor:
    """A copy of `t`'s current values that carries `t`'s current place in the graph."""
    old = tensor_of(t._data.copy())
    old.grad_fn, old._output_nr, old._requires_grad = t.grad_fn, t._output_nr, t._requires_grad
    return old


def _inplace_on_view(view, compute, written=None):
    """PyTorch's way: changing a view in place rewrites its base. The view's new values are
    written into the base by a CopySlices node, and the view is read back out of the new base.
    (What PyTorch writes into is the view, or `written`, a view of it: `_write` is told.)"""
    base = view._base
    key = _key_in(base, view)
    result = compute(_with_history(view))
    _check_cast(result._data, view._data)
    new_base = CopySlices.apply(_with_history(base), key, result.to(base.dtype),
                                shares_memory_within(view))
    _write(base, new_base._data, view._data if written is None else written)  # (the counter is
    # shared: the view's version goes up too)
    _take_history(base, new_base)
    _take_history(view, AsStrided.apply(base, key))
    _refresh_views(base, view)
    return view


def _refresh_views(t, changed=None, recorded=True) -> None:
    """The memory of `t` changed in place (with its history rewritten, or, not `recorded`, not):
    every other live view with a history that shares its version counter is now read out of its
    base (PyTorch regenerates their grad_fn the same way, when it finds the version moved), or
    its gradient would be stale; but a custom Function's (autograd/custom_view.py)."""
    views = t._version_counter.views
    for view in list(views.values()) if views is not None else ():
        if view._custom_function_view or view._multi_output_view:  # never rebuilt: its
            continue  # grad_fn now refuses to be read (custom_view.py, multi_output_view.py)
        base = view._base
        if view is not changed and np.shares_memory(view._data, base._data):
            key = _key_in(base, view)
            _take_history(view, AsStrided.apply(base, key))


def views_read_again(t: Tensor) -> None:
    """`t` changed in place with nothing recorded (grad mode off, or nothing that requires
    grad): the history of each live view of its memory with a history of its own (`t` too, if
    it is one) is stale. PyTorch reads such a view again out of its base when its grad_fn is
    next asked for (AsStridedBackward0, the same gradient); here, at once."""
    counter = t._counter
    if counter is None or not counter.views:  # (None, or every view gone)
        return
    mode = _grad_mode.state
    outside = mode.enabled, mode.inference
    mode.enabled, mode.inference = True, False  # recorded, whatever the change's mode
    try:
        _refresh_views(t, recorded=False)
    finally:
        mode.enabled, mode.inference = outside


def _key_in(base: Tensor, view: Tensor) -> tuple:
    """Where in `base` each element of `view` lies, as a key of position arrays (a 0-d base's
    as its one element along one dimension: ops/indexing._cells)."""
    return np.unravel_index(_positions_in(base._data, view._data), base.shape or (1,))


def _positions_in(base: np.ndarray, view: np.ndarray) -> np.ndarray:
    """The flat (C-order) index in `base` of each element of `view`, which lies in its memory.

    A numpy view does not record where in its base it starts or how it was cut out, so the
    one public way to find out is by memory address: each element's address in both arrays,
    then, for each of the view's addresses, the base element that has it."""
    flat = _element_addresses(base).reshape(-1)
    order = np.argsort(flat, kind="stable")
    return order[np.searchsorted(flat[order], _element_addresses(view))]


def _element_addresses(a: np.ndarray) -> np.ndarray:
    """The memory address of each element of `a` (in `a`'s shape): the address of its first
    element (`__array_interface__`) plus, along each axis, index times stride in bytes."""
    start = a.__array_interface__["data"][0]
    addresses = np.full(a.shape, start, dtype=np.int64)
    for axis, stride in enumerate(a.strides):
        steps = np.arange(a.shape[axis]) * stride  # along this axis, broadcast over the others
        addresses += steps.reshape([-1] + [1] * (a.ndim - axis - 1))
    return addresses


def _check_cast(values, target) -> None:
    if values.dtype != target.dtype and not np.can_cast(values.dtype, target.dtype, "same_kind"):
        raise RuntimeError(f"result type {_type_word(values.dtype)} can't be cast to the desired "
                           f"output type {_type_word(target.dtype)}")


def _write(t: Tensor, values: np.ndarray, written: np.ndarray | None = None) -> None:
    _check_cast(values, t._data)
    if values.shape != t._data.shape:
        shape = np.broadcast_shapes(values.shape, t._data.shape)
        if shape != t._data.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, t.shape))}] doesn't "
                               f"match the broadcast shape [{', '.join(map(str, shape))}]")
    t._data[...] = values
    t._bump_version(written)


def _type_word(np_dtype: np.dtype) -> str:
    return _dtype.from_numpy(np_dtype).tensor_type.replace("Tensor", "")


def _take_history(t: Tensor, result: Tensor) -> None:
    """`t` becomes the output of `result`'s node (and of anything it had saved of it)."""
    node = result.grad_fn
    if node is None:
        return
    retained = t._retains_grad
    if retained:  # the old values' gradient is no longer `t`'s: PyTorch moves the retain
        t.grad_fn._retained.pop(t._output_nr, None)
    counter = t._version_counter  # (made, if not yet, while the old node can still be told)
    t.grad_fn, t._output_nr = node, result._output_nr
    replace_output(node, result, t)
    for saved in node._saved or ():
        if saved is not None and saved.is_own_output:
            saved.data, saved.counter, saved.version = t._data, counter, counter.value
    if retained:
        t._retains_grad = False
        t.retain_grad()


def setitem(t: Tensor, key: Any, value: Any) -> None:
    key = tuple(_plain_key(k) for k in key) if isinstance(key, tuple) else _plain_key(key)
    advanced = is_advanced(key)
    if advanced:
        check_advanced_key(t.shape, key if isinstance(key, tuple) else (key,))
    positions = as_positions(t.shape, key) if advanced else key
    if _grad_mode.state.enabled and t._made_in_no_grad and not advanced and t.requires_grad:
        last = key[-1] if isinstance(key, tuple) and key else key  # the view written through
        raise no_grad_view_error(t, "Select" if isinstance(last, int) else "Slice")
    if _grad_mode.state.enabled and t.grad_fn is None and t._requires_grad and not advanced:
        # PyTorch writes through a view here (select/slice, then copy_), hence its wording
        raise RuntimeError(VIEW_OF_LEAF_IN_PLACE)
    if (t._multi_output_view or t._custom_function_view) and not advanced:
        check_inplace(index(t, key))  # PyTorch's message names the view written through
    scalar = not isinstance(value, Tensor)
    if not (scalar or advanced) and overlaps_in_part(t._data[key], value._data):
        raise RuntimeError(ERR_PARTIAL_OVERLAP)  # PyTorch's copy_ into t[key] refuses it
    if scalar:
        value = tensor_of(np.asarray(value, dtype=t._data.dtype))
    elif value.dtype is not t.dtype:
        value = value.to(t.dtype)
    if shares_memory_within(t):
        _setitem_expanded(t, key, positions, value, advanced)
        return
    # integers with arrays: PyTorch selects first and index_puts into that view (CopySlices)
    node = IndexPut if advanced and positions is key else CopySlices
    # PyTorch writes through the view t[key] (copy_), or into t itself for arrays (index_put_)
    written = _view_written(t, key) if writes_watched() and not advanced else None
    inplace(t, lambda x: node.apply(x, positions, value), value, written=written)


def _view_written(t: Tensor, key: Any) -> np.ndarray | None:
    """t[key]'s memory, which PyTorch's copy_ writes into (None where numpy cannot read a 0-d
    array so: the write refuses the key later, with PyTorch's words)."""
    keys = key if isinstance(key, tuple) else (key,)
    try:  # (with an Ellipsis last, integers alone give a 0-d view, not a numpy scalar)
        view = t._data[keys if Ellipsis in keys else (*keys, Ellipsis)]
    except (IndexError, ValueError):
        return None
    return view if isinstance(view, np.ndarray) else None


def _setitem_expanded(t: Tensor, key: Any, positions: Any, value: Tensor, advanced: bool) -> None:
    """`e[key] = value` where `e` is expanded. PyTorch writes through the view `e[key]` (copy_,
    refused if its elements share memory too), or, for arrays and masks, writes the positions
    picked into the memory, with a warning that it will stop when the view written into (e
    after its integers and slices) shares memory within itself (WriteThroughExpanded)."""
    if not advanced:
        index(t, key).copy_(value)
        return
    overlapping = _written_view_overlaps(t, key)
    if overlapping:
        warnings.warn(INDEX_PUT_EXPANDED.format("index_put_", "[indices] = tensor"), UserWarning,
                      stacklevel=4)
        mask = key[0] if isinstance(key, tuple) and len(key) == 1 else key
        if value._data.size == 1 and isinstance(mask, np.ndarray) and mask.dtype == np.bool_:
            warnings.warn(INDEX_PUT_EXPANDED.format("masked_fill_", "[mask] = scalar"),
                          UserWarning, stacklevel=4)
    check_inplace(t)
    recorded = _grad_mode.state.enabled and (t.requires_grad or value.requires_grad)
    if recorded and t._base is None:  # an expanded root: no memory to record the write into
        raise RuntimeError(ERR_INTERNAL_OVERLAP)
    old_base = _with_history(t._base) if recorded else None
    t._data[positions] = value._data
    t._bump_version()
    if recorded:  # the base takes the write's history, the view is read back out of it
        base = t._base
        view_key = _key_in(base, t)
        written = tuple(k[positions] for k in view_key)
        _take_history(base, WriteThroughExpanded.apply(old_base, value, written, overlapping))
        _take_history(t, AsStrided.apply(base, view_key))
        _refresh_views(base, t)


def _written_view_overlaps(t: Tensor, key: Any) -> bool:
    """Whether the view PyTorch writes `t[key] = value` into (t with the key's integers and
    slices applied; index_put_ takes the arrays) has elements that share memory."""
    parts = key if isinstance(key, tuple) else (key,)
    basic = tuple(slice(None) if isinstance(k, np.ndarray) else k for k in parts)
    data = t._data[basic]
    return any(stride == 0 and size > 1 for stride, size in zip(data.strides, data.shape))


INDEX_PUT_EXPANDED = (
    "Use of {} on expanded tensors is deprecated. Please clone() the tensor before performing "
    "this operation. This also applies to advanced indexing e.g. tensor{}")
