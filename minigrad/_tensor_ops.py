"""Tensor's operator methods. Each is one line that hands over to an op in `minigrad.ops`;
the `_` methods change a tensor in place (see `_inplace`)."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _grad_mode

_OPS: tuple = ()


def _ops():  # the ops modules import Tensor, so they are looked up when first used
    global _OPS
    if not _OPS:  # an import statement costs microseconds, as much as a small op itself
        from .ops import indexing, linalg, pointwise, reduction, shape
        _OPS = pointwise, reduction, shape, linalg, indexing
    return _OPS


def _shape_args(shape: tuple) -> tuple:
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape


class TensorOps:
    __slots__ = ()

    # ---- arithmetic -----------------------------------------------------------------------
    def __rsub__(self, other): return _ops()[0].Rsub.apply(*_ops()[0].as_tensor_pair(self, other)[:1], other) if not _is_tensor(other) else other.sub(self)
    def __rtruediv__(self, other): return _rdiv(self, other)
    def __pow__(self, exponent): return self.pow(exponent)
    def __rpow__(self, base): return _rpow(self, base)
    def __matmul__(self, other): return self.matmul(other)
    def __rmatmul__(self, other): return other.matmul(self)
    def __neg__(self): return _ops()[0].Neg.apply(self)
    def __pos__(self): return self
    def __abs__(self): return self.abs()
    def __iadd__(self, other): return self.add_(other)
    def __isub__(self, other): return self.sub_(other)
    def __imul__(self, other): return self.mul_(other)
    def __itruediv__(self, other): return self.div_(other)

    def add(self, other, *, alpha=1): return _ops()[0].Add.apply(*_ops()[0].as_tensor_pair(self, other), alpha)
    def sub(self, other, *, alpha=1): return _ops()[0].Sub.apply(*_ops()[0].as_tensor_pair(self, other), alpha)
    def mul(self, other): return _ops()[0].Mul.apply(*_ops()[0].as_tensor_pair(self, other))
    def div(self, other): return _ops()[0].Div.apply(*_ops()[0].as_tensor_pair(self._float_if_int(), other))
    # the operators are the methods themselves: one call less on every `x * 2`
    __add__ = __radd__ = add
    __sub__ = sub
    __mul__ = __rmul__ = mul
    __truediv__ = div
    def neg(self): return -self
    def reciprocal(self): return _ops()[0].Reciprocal.apply(self._float_if_int())

    def pow(self, exponent):
        if _is_tensor(exponent):
            return _ops()[0].PowTensor.apply(*_ops()[0].as_tensor_pair(self, exponent))
        if isinstance(exponent, float) and not self.dtype.is_floating_point:
            return _ops()[0].Pow.apply(self._float_if_int(), exponent)
        return _ops()[0].Pow.apply(self, exponent)

    # ---- comparisons (no gradient, boolean results) -----------------------------------------
    def _compare(self, other, op):
        from .tensor import Tensor
        return Tensor(np.asarray(op(self._data, other._data if _is_tensor(other) else other)))
    def __eq__(self, other): return self._compare(other, np.equal)
    def __ne__(self, other): return self._compare(other, np.not_equal)
    def __lt__(self, other): return self._compare(other, np.less)
    def __le__(self, other): return self._compare(other, np.less_equal)
    def __gt__(self, other): return self._compare(other, np.greater)
    def __ge__(self, other): return self._compare(other, np.greater_equal)
    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__
    def __invert__(self): return self._compare(None, lambda a, _: ~a)
    def __and__(self, other): return self._compare(other, np.logical_and)
    def __or__(self, other): return self._compare(other, np.logical_or)

    def equal(self, other) -> bool: return self.shape == other.shape and bool((self._data == other._data).all())
    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
        return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))
    def all(self): return self._compare(None, lambda a, _: np.asarray(a.all()))
    def any(self): return self._compare(None, lambda a, _: np.asarray(a.any()))
    def sign(self): return _ops()[0].sign(self)
    def argmax(self, dim=None, keepdim=False): return self._compare(None, lambda a, _: np.asarray(np.argmax(a, axis=dim, keepdims=keepdim) if dim is not None else np.argmax(a)))
    def argmin(self, dim=None, keepdim=False): return self._compare(None, lambda a, _: np.asarray(np.argmin(a, axis=dim, keepdims=keepdim) if dim is not None else np.argmin(a)))

    # ---- element-wise functions -------------------------------------------------------------
    def abs(self): return _ops()[0].Abs.apply(self)
    def exp(self): return _ops()[0].Exp.apply(self._float_if_int())
    def log(self): return _ops()[0].Log.apply(self._float_if_int())
    def sqrt(self): return _ops()[0].Sqrt.apply(self._float_if_int())
    def sin(self): return _ops()[0].Sin.apply(self._float_if_int())
    def cos(self): return _ops()[0].Cos.apply(self._float_if_int())
    def tanh(self): return _ops()[0].Tanh.apply(self._float_if_int())
    def sigmoid(self): return _ops()[0].Sigmoid.apply(self._float_if_int())
    def relu(self): return _ops()[0].Relu.apply(self)
    def clamp(self, min=None, max=None): return _ops()[0].Clamp.apply(self, min, max)  # noqa: A002
    clip = clamp

    # ---- reductions -------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False): return _ops()[1].reduce_sum(self, dim, keepdim)
    def mean(self, dim=None, keepdim=False): return _ops()[1].reduce_mean(self, dim, keepdim)
    def max(self, dim=None, keepdim=False): return _ops()[1].reduce_max(self, dim, keepdim, True)
    def min(self, dim=None, keepdim=False): return _ops()[1].reduce_max(self, dim, keepdim, False)

    # ---- shapes -----------------------------------------------------------------------------
    def view(self, *shape): return _ops()[2].View.apply(self, _resolve(self, _shape_args(shape)))
    def reshape(self, *shape): return _ops()[2].reshape(self, _resolve(self, _shape_args(shape)))
    def view_as(self, other): return self.view(other.shape)
    def reshape_as(self, other): return self.reshape(other.shape)
    def flatten(self, start_dim=0, end_dim=-1):
        if self.ndim == 0:
            return self.reshape(1)
        s, e = start_dim % self.ndim, end_dim % self.ndim
        return self if s == e else self.reshape(self.shape[:s] + (-1,) + self.shape[e + 1:])
    def expand(self, *shape): return _ops()[2].Expand.apply(self, _shape_args(shape))
    def expand_as(self, other): return self.expand(other.shape)
    def permute(self, *dims): return _ops()[2].Permute.apply(self, _ops()[2]._dims(_shape_args(dims), self.ndim))
    def transpose(self, dim0, dim1):  # a 0-d tensor accepts dims 0 and -1 (both mean itself)
        dims = _ops()[2]._dims((dim0, dim1), self.ndim) or (0, 0)
        return _ops()[2].Transpose.apply(self, *dims)
    def t(self): return _ops()[2].T.apply(self)
    @property
    def T(self): return self.permute(*reversed(range(self.ndim)))  # noqa: N802
    @property
    def mT(self): return self.transpose(-2, -1)  # noqa: N802
    def squeeze(self, dim=None):
        if dim is None:
            return _ops()[2].Squeeze.apply(self, tuple(range(self.ndim)))
        return _ops()[2].SqueezeDim.apply(self, _ops()[2]._dims(dim, self.ndim))
    def unsqueeze(self, dim): return _ops()[2].Unsqueeze.apply(self, dim % (self.ndim + 1))
    def select(self, dim, index): return self[(slice(None),) * (dim % self.ndim) + (index,)]
    def narrow(self, dim, start, length): return self[(slice(None),) * (dim % self.ndim) + (slice(start, start + length),)]
    def __getitem__(self, key): return _ops()[4].index(self, key)
    def __setitem__(self, key, value): _setitem(self, key, value)

    # ---- products ---------------------------------------------------------------------------
    def matmul(self, other): return _ops()[3].matmul(self, other)
    def mm(self, other): return _ops()[3].Mm.apply(self, other)
    def mv(self, other): return _ops()[3].Mv.apply(self, other)
    def dot(self, other): return _ops()[3].Dot.apply(self, other)

    # ---- copies and types -------------------------------------------------------------------
    def clone(self): return _ops()[2].Clone.apply(self, True)  # keeps the layout (torch.preserve_format)
    def contiguous(self): return self if self.is_contiguous() else _ops()[2].Clone.apply(self)  # a C-order copy
    def to(self, dtype=None, *args, **kwargs):
        from ._dtype import dtype as dtype_cls
        if not isinstance(dtype, dtype_cls):  # .to("cpu") and friends: nothing to do
            dtype = kwargs.get("dtype") or next((a for a in args if isinstance(a, dtype_cls)), None)
            if dtype is None:
                return self
        return self if dtype is self.dtype else _ops()[2].ToCopy.apply(self, dtype)
    def cpu(self): return self
    def float(self): return self.to(_dt("float32"))
    def double(self): return self.to(_dt("float64"))
    def long(self): return self.to(_dt("int64"))
    def int(self): return self.to(_dt("int32"))
    def bool(self): return self.to(_dt("bool"))
    def _float_if_int(self): return self if self.dtype.is_floating_point else self.to(_dt("float32"))

    # ---- in place ---------------------------------------------------------------------------
    def add_(self, other, *, alpha=1): return _update(self, np.add, other, alpha, lambda t: t.add(other, alpha=alpha))
    def sub_(self, other, *, alpha=1): return _update(self, np.subtract, other, alpha, lambda t: t.sub(other, alpha=alpha))
    def mul_(self, other): return _update(self, np.multiply, other, 1, lambda t: t.mul(other))
    def div_(self, other): return _update(self, np.divide, other, 1, lambda t: t.div(other))
    def pow_(self, exponent): return _inplace(self, lambda t: t.pow(exponent), exponent)
    def exp_(self): return _inplace(self, lambda t: t.exp())
    def clamp_(self, min=None, max=None): return _inplace(self, lambda t: t.clamp(min, max))  # noqa: A002
    def relu_(self): return _inplace(self, lambda t: t.relu())
    def neg_(self): return _inplace(self, lambda t: -t)
    def sigmoid_(self): return _inplace(self, lambda t: t.sigmoid())
    def tanh_(self): return _inplace(self, lambda t: t.tanh())
    def copy_(self, src): return _inplace(self, lambda t: _fill().Copy.apply(t, _as_tensor(src)), src)
    def zero_(self): return _inplace(self, lambda t: _fill().Zero.apply(t, 0))
    def fill_(self, value): return _inplace(self, lambda t: _fill().fill(t, value), value)
    def normal_(self, mean=0.0, std=1.0):
        from .random import _generator
        return self._overwrite(_generator().normal(mean, std, self.shape))
    def uniform_(self, a=0.0, b=1.0):
        from .random import _generator
        return self._overwrite(_generator().uniform(a, b, self.shape))

    def _overwrite(self, values):
        """Replace the values with no history: for initialisers, which PyTorch runs in no_grad."""
        _check_inplace(self)
        self._data[...] = values
        self._bump_version()
        return self


def _is_tensor(x: Any) -> bool:
    return isinstance(x, TensorOps)  # Tensor's own base class: no import needed, unlike Tensor


def _dt(name: str):
    from . import _dtype
    return getattr(_dtype, name)


def _rpow(self, base):
    from ._dtype import result_type
    dt = result_type(base, self)
    return _ops()[0].RPow.apply(self if self.dtype is dt else self.to(dt), base)


def _rdiv(self, other):
    if _is_tensor(other):
        return other.div(self)
    return self._float_if_int().reciprocal() * other


def _resolve(t, shape) -> tuple:
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) == 1:
        known = int(np.prod([s for s in shape if s != -1]))
        if known and t.numel() % known == 0:
            shape = tuple(t.numel() // known if s == -1 else s for s in shape)
    return shape


def _fill():
    from .ops import fill
    return fill


def _as_tensor(x):
    from .tensor import Tensor
    return x if _is_tensor(x) else Tensor(np.asarray(x))


def _check_inplace(t) -> None:
    if not _grad_mode._enabled:
        return
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    if t._base is not None and t._base.grad_fn is None and t._base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")


def _update(self, ufunc, other, alpha, compute):
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
        return _inplace(self, compute, other)
    from .autograd.function import _loud, _quiet

    quiet = _quiet()  # no overflow warnings, as in PyTorch
    try:
        ufunc(self._data, value if alpha == 1 else alpha * value, out=self._data)
    finally:
        _loud(quiet)
    self._bump_version()
    return self


def _inplace(self, compute, *args):
    """Change `self` in place. The result is computed out of place from a copy of the old
    values that carries the old history; then the values are written back into `self`, its
    version goes up, and its grad_fn becomes the new node. Anything saved earlier that
    held `self` now fails its version check, exactly as in PyTorch."""
    _check_inplace(self)
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


def _setitem(self, key, value) -> None:
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
    _inplace(self, lambda t: node.apply(t, positions, value), value)
