"""Tensor's operator methods. Each is one line that hands over to an op in `minigrad.ops`;
the `_` methods change a tensor in place (see `_inplace`)."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _inplace

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
    def div(self, other, *, rounding_mode="<not given>"):
        if rounding_mode != "<not given>":  # rounding (or an explicit None): see ops/rounding.py
            from .ops.rounding import div
            return div(self, other, rounding_mode)
        return _ops()[0].Div.apply(*_ops()[0].as_tensor_pair(self._float_if_int(), other))
    def floor_divide(self, other):
        from .ops.rounding import floor_divide
        return floor_divide(self, other)
    def remainder(self, other):
        from .ops.rounding import remainder
        return remainder(self, other)
    def __floordiv__(self, other): return self.floor_divide(other)
    def __rfloordiv__(self, other):
        from .ops.rounding import floor_divide
        return floor_divide(other, self)
    def __mod__(self, other): return self.remainder(other)
    def __rmod__(self, other):
        from .ops.rounding import remainder
        return remainder(other, self)
    def nelement(self): return self.numel()
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
    # keepdims=: numpy's spelling, which PyTorch accepts too (makemore uses it)
    def sum(self, dim=None, keepdim=False, *, keepdims=None):
        return _ops()[1].reduce_sum(self, dim, keepdim if keepdims is None else keepdims)
    def mean(self, dim=None, keepdim=False, *, keepdims=None):
        return _ops()[1].reduce_mean(self, dim, keepdim if keepdims is None else keepdims)
    def max(self, dim=None, keepdim=False): return _ops()[1].reduce_max(self, dim, keepdim, True)
    def min(self, dim=None, keepdim=False): return _ops()[1].reduce_max(self, dim, keepdim, False)
    def norm(self, p="fro", dim=None, keepdim=False, dtype=None): return _norm().norm(self, p, dim, keepdim, dtype)

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
    def __setitem__(self, key, value): _inplace.setitem(self, key, value)

    # ---- products ---------------------------------------------------------------------------
    def matmul(self, other): return _ops()[3].matmul(self, other)
    def mm(self, other): return _ops()[3].Mm.apply(self, other)
    def mv(self, other): return _ops()[3].Mv.apply(self, other)
    def dot(self, other): return _ops()[3].Dot.apply(self, other)

    # ---- copies and types -------------------------------------------------------------------
    def clone(self): return _ops()[2].Clone.apply(self, True)  # keeps the layout (torch.preserve_format)
    def contiguous(self): return self if self.is_contiguous() else _ops()[2].Clone.apply(self)  # a C-order copy
    def to(self, *args, **kwargs):
        from ._device import dtype_of_to  # a device named is checked (CUDA fails) and kept: CPU
        dtype = dtype_of_to(args, kwargs)
        return self if dtype is None or dtype is self.dtype else _ops()[2].ToCopy.apply(self, dtype)
    def cpu(self): return self
    def cuda(self, device=None, non_blocking=False):
        from ._device import check
        return self.to(check("cuda" if device is None else device))
    def float(self): return self.to(_dt("float32"))
    def double(self): return self.to(_dt("float64"))
    def long(self): return self.to(_dt("int64"))
    def int(self): return self.to(_dt("int32"))
    def bool(self): return self.to(_dt("bool"))
    def _float_if_int(self): return self if self.dtype.is_floating_point else self.to(_dt("float32"))

    # ---- in place ---------------------------------------------------------------------------
    def add_(self, other, *, alpha=1): return _inplace.update(self, np.add, other, alpha, lambda t: t.add(other, alpha=alpha))
    def sub_(self, other, *, alpha=1): return _inplace.update(self, np.subtract, other, alpha, lambda t: t.sub(other, alpha=alpha))
    def mul_(self, other): return _inplace.update(self, np.multiply, other, 1, lambda t: t.mul(other))
    def div_(self, other): return _inplace.update(self, np.divide, other, 1, lambda t: t.div(other))
    def pow_(self, exponent): return _inplace.inplace(self, lambda t: t.pow(exponent), exponent)
    def exp_(self): return _inplace.inplace(self, lambda t: t.exp())
    def clamp_(self, min=None, max=None): return _inplace.inplace(self, lambda t: t.clamp(min, max))  # noqa: A002
    def relu_(self): return _inplace.inplace(self, lambda t: t.relu())
    def neg_(self): return _inplace.inplace(self, lambda t: -t)
    def sigmoid_(self): return _inplace.inplace(self, lambda t: t.sigmoid())
    def tanh_(self): return _inplace.inplace(self, lambda t: t.tanh())
    def copy_(self, src): return _inplace.inplace(self, lambda t: _fill().Copy.apply(t, _as_tensor(src)), src)
    def zero_(self): return _inplace.inplace(self, lambda t: _fill().Zero.apply(t, 0))
    def fill_(self, value): return _inplace.inplace(self, lambda t: _fill().fill(t, value), value)
    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        from .random import _normal_values
        return self._overwrite(_normal_values(self, mean, std, generator))
    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        from .random import _uniform_values
        return self._overwrite(_uniform_values(self, a, b, generator))

    def _overwrite(self, values):
        """Replace the values with no history: for initialisers, which PyTorch runs in no_grad."""
        _inplace.check_inplace(self)
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


def _norm():
    from .ops import norm
    return norm


def _fill():
    from .ops import fill
    return fill


def _as_tensor(x):
    from .tensor import Tensor
    return x if _is_tensor(x) else Tensor(np.asarray(x))
