"""Tensor's operator methods. Each is one line that hands over to an op in `minigrad.ops`;
the `_` methods change a tensor in place (see `_inplace`).

The ops are built on Tensor (they import it), so Tensor cannot inherit these methods without
an import cycle. Instead tensor.py defines the class, the ops import it, and this module,
which imports both, copies the methods of `TensorOps` onto `Tensor` once (`_attach`, at the
bottom; minigrad/__init__.py imports this module). Each layer imports only the layers below.
`backward` is here for the same reason: it hands over to `minigrad.autograd`, built on Tensor.
(compat/ attaches the legacy `type()` and the storage methods the same way, from above.)"""
from __future__ import annotations

import builtins
import warnings
from types import FunctionType
from typing import Any

import numpy as np

from . import _device, _dtype, _grad_mode, _inplace, autograd, creation, random
from .ops import (fill, gather, indexing, linalg, norm, pointwise, reduction, rounding,
                  selection, shape, statistics)
from .ops.operands import as_tensor_pair, type_name
from .tensor import Tensor, tensor_of


def _tensor_argument(value: Any, method: str, name: str) -> Tensor:
    """`value`, when it is a tensor; else PyTorch's TypeError for a method's first argument
    (the function form, `torch.mm(a, b)`, counts one more: minigrad/__init__.py)."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{method}(): argument '{name}' (position 1) must be Tensor, not "
                        f"{type_name(value)}")
    return value


def _shape_args(sizes: tuple) -> tuple:
    """`view(2, 3)` and `view((2, 3))` alike."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        return tuple(sizes[0])
    return sizes


# What an operator takes besides a tensor: a number (bool is an int), never None or a list.
_OPERANDS = (Tensor, builtins.int, builtins.float, builtins.complex, np.number, np.bool_)


class TensorOps:
    """The methods `_attach` gives Tensor: read them as Tensor's own."""

    # ---- arithmetic -----------------------------------------------------------------------
    def add(self, other, *, alpha=1):
        if type(alpha) is int and alpha == 1:  # Add's default (not 1.0 or True, which
            # _saved_alpha shows): its node then knows that every argument is a tensor
            return pointwise.Add.apply(*as_tensor_pair(self, other))
        pair = as_tensor_pair(self, other)
        pointwise.check_alpha(self, other, alpha)
        return pointwise.Add.apply(*pair, alpha)

    def sub(self, other, *, alpha=1):
        if type(alpha) is int and alpha == 1:  # (as add's)
            return pointwise.Sub.apply(*as_tensor_pair(self, other, True))
        pair = as_tensor_pair(self, other, True)
        pointwise.check_alpha(self, other, alpha)
        return pointwise.Sub.apply(*pair, alpha)

    def mul(self, other):
        if type(other) is float and not _grad_mode.state.enabled:  # `lr * p.grad` in no_grad
            return pointwise.mul_unrecorded(self, other)
        return pointwise.Mul.apply(*as_tensor_pair(self, other))

    def div(self, other, *, rounding_mode="<not given>"):
        if rounding_mode != "<not given>":  # rounding, or an explicit None: see ops/rounding.py
            return rounding.div(self, other, rounding_mode)
        return pointwise.Div.apply(*_true_division(self, other))

    # The operators do what the methods do (`2 * x` is `x.mul(2)`), except with a numpy array
    # (or None, a list, a string): PyTorch's then return NotImplemented, so that Python asks the
    # other operand; numpy computes on the tensor's values (`__array__`) and wraps the result as
    # a tensor (`__array_wrap__`), or refuses (`nd - t` is a TypeError), where the methods raise
    # a TypeError (as_tensor_pair). The four of every step test that first, then go straight to
    # their operation; the rarer ones are the methods behind one wrapper (_operators, at the
    # bottom). @ takes only a tensor: see __matmul__.
    def __add__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        return pointwise.Add.apply(*as_tensor_pair(self, other))

    __radd__ = __add__

    def __sub__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        return pointwise.Sub.apply(*as_tensor_pair(self, other, True))

    def __rsub__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        if isinstance(other, Tensor):
            return other.sub(self)
        return pointwise.Rsub.apply(as_tensor_pair(self, other, True)[0], other)

    def __mul__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        if type(other) is float and not _grad_mode.state.enabled:  # `lr * p.grad` in no_grad
            return pointwise.mul_unrecorded(self, other)
        return pointwise.Mul.apply(*as_tensor_pair(self, other))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        return pointwise.Div.apply(*_true_division(self, other))

    def __rtruediv__(self, other):
        if isinstance(other, Tensor):
            return other.div(self)
        if not isinstance(other, (np.ndarray, *_OPERANDS)):
            return NotImplemented
        return self._float_if_int().reciprocal() * other


    def __rpow__(self, base):
        if isinstance(base, Tensor):
            return base.pow(self)
        dt = _dtype.result_type(base, self)
        return pointwise.RPow.apply(self if self.dtype is dt else self.to(dt), base)

    def __rmatmul__(self, other):
        return other.matmul(self) if isinstance(other, Tensor) else NotImplemented
    def __neg__(self): return pointwise.Neg.apply(self)
    def __pos__(self): return self
    def __abs__(self): return self.abs()
    def floor_divide(self, other): return rounding.floor_divide(self, other)
    def remainder(self, other): return rounding.remainder(self, other)
    __floordiv__ = floor_divide  # (the methods unwrapped: ops/arguments.py checks the methods)
    def __rfloordiv__(self, other): return rounding.floor_divide(other, self)
    __mod__ = remainder
    def __rmod__(self, other): return rounding.remainder(other, self)
    def nelement(self): return self.numel()
    def ndimension(self): return self.dim()
    def neg(self): return -self
    def reciprocal(self): return pointwise.Reciprocal.apply(self._float_if_int())

    def pow(self, exponent):
        if isinstance(exponent, Tensor):
            return pointwise.PowTensor.apply(*as_tensor_pair(self, exponent))
        if isinstance(exponent, float) and not self.dtype.is_floating_point:
            return pointwise.Pow.apply(self._float_if_int(), exponent)
        if self._data.dtype.kind == "b" and type(exponent) is builtins.int:  # True ** 2 is 1
            return pointwise.Pow.apply(self.to(_dtype.int64), exponent)
        return pointwise.Pow.apply(self, exponent)

    __pow__ = pow

    # ---- comparisons (no gradient, boolean results) -----------------------------------------
    def _on_values(self, other, op):
        """`op` on the values, as a tensor without history (a mask, indices)."""
        other = other._data if isinstance(other, Tensor) else other
        return tensor_of(np.asarray(op(self._data, other)))

    def _compare(self, other, op):
        """`op` on both, in the dtype PyTorch's promotion gives (an int tensor and 2.5 compare
        as float32, a float32 vector and a float64 0-d tensor as float32), not numpy's. Anything
        but a tensor, a number or (for ==) an array: NotImplemented, so `t == None` is False."""
        if isinstance(other, np.ndarray):  # only == takes one (see _operators)
            other = tensor_of(other)
        if isinstance(other, (Tensor, builtins.int, builtins.float, np.generic)):
            a, b = as_tensor_pair(self, other)
            return tensor_of(np.asarray(op(a._data, b._data)))
        return NotImplemented

    def __array_wrap__(self, array):  # PyTorch's, signature and all (numpy 2 warns about it)
        if array.dtype == bool:  # as PyTorch's: a numpy comparison of a tensor gives uint8
            array = array.astype("uint8")
        return creation.from_numpy(array)

    def _bitwise(self, other, op, name):
        """&, | and ^: bitwise on integers, logical on booleans, none on floats (PyTorch's)."""
        a, b = as_tensor_pair(self, other)
        if a.dtype.is_floating_point:
            raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                      f"'{a.dtype.scalar_name}'")
        return tensor_of(np.asarray(op(a._data, b._data)))

    def __eq__(self, other): return self._compare(other, np.equal)
    def __ne__(self, other): return self._compare(other, np.not_equal)
    def __lt__(self, other): return self._compare(other, np.less)
    def __le__(self, other): return self._compare(other, np.less_equal)
    def __gt__(self, other): return self._compare(other, np.greater)
    def __ge__(self, other): return self._compare(other, np.greater_equal)
    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__
    def __invert__(self):
        if self.dtype.is_floating_point:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                            "tensors")
        return self._on_values(None, lambda a, _: ~a)
    def __and__(self, other): return self._bitwise(other, np.bitwise_and, "bitwise_and")
    def __or__(self, other): return self._bitwise(other, np.bitwise_or, "bitwise_or")
    def __xor__(self, other): return self._bitwise(other, np.bitwise_xor, "bitwise_xor")
    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def equal(self, other) -> bool:
        return self.shape == other.shape and bool((self._data == other._data).all())

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
        return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))

    def isfinite(self): return self._on_values(None, lambda a, _: np.isfinite(a))
    def isnan(self): return self._on_values(None, lambda a, _: np.isnan(a))
    def isinf(self): return self._on_values(None, lambda a, _: np.isinf(a))
    def sign(self): return pointwise.sign(self)
    def argmax(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return self._on_values(dim, _arg(np.argmax, keepdim))

    def argmin(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return self._on_values(dim, _arg(np.argmin, keepdim))

    # ---- element-wise functions -------------------------------------------------------------
    def abs(self): return pointwise.Abs.apply(self)
    def exp(self): return pointwise.Exp.apply(self._float_if_int())
    def log(self): return pointwise.Log.apply(self._float_if_int())
    def sqrt(self): return pointwise.Sqrt.apply(self._float_if_int())
    def sin(self): return pointwise.Sin.apply(self._float_if_int())
    def cos(self): return pointwise.Cos.apply(self._float_if_int())
    def tanh(self): return pointwise.Tanh.apply(self._float_if_int())
    def sigmoid(self): return pointwise.Sigmoid.apply(self._float_if_int())
    def relu(self): return pointwise.Relu.apply(self)
    def clamp(self, min=None, max=None): return selection.clamp(self, min, max)
    clip = clamp
    def round(self, decimals=0): return rounding.round_(self, decimals)
    def maximum(self, other): return selection.maximum(self, other)
    def minimum(self, other): return selection.minimum(self, other)

    # ---- reductions -------------------------------------------------------------------------
    # axis= and keepdims=: numpy's spellings, which PyTorch accepts too (makemore uses them)
    def sum(self, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        out = reduction.reduce_sum(self if dtype is None else self.to(dtype), dim, keepdim)
        return _counted_as_kernel_writes(self, out, 1)

    def mean(self, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        out = reduction.reduce_mean(self if dtype is None else self.to(dtype), dim, keepdim)
        return _counted_as_kernel_writes(self, out, 2)  # the sum, then a division in place

    def max(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        if isinstance(dim, Tensor):  # torch.max(a, b): the element-wise larger
            return selection.maximum(self, dim)
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return reduction.extremum(self, "max", dim, keepdim)

    def min(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        if isinstance(dim, Tensor):
            return selection.minimum(self, dim)
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return reduction.extremum(self, "min", dim, keepdim)

    def amax(self, dim=(), keepdim=False, *, axis=None, keepdims=None):
        return statistics.amax_or_amin(self, "amax", *_numpy_names(dim, keepdim, axis, keepdims))

    def amin(self, dim=(), keepdim=False, *, axis=None, keepdims=None):
        return statistics.amax_or_amin(self, "amin", *_numpy_names(dim, keepdim, axis, keepdims))

    def prod(self, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):
        return statistics.prod(self, *_numpy_names(dim, keepdim, axis, keepdims), dtype)

    def cumsum(self, dim=None, *, dtype=None, axis=None):
        return statistics.cumsum(self, dim if axis is None else axis, dtype)

    def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None, axis=None,
            keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return statistics.var_or_std(self, "var", dim, unbiased, keepdim, correction)

    def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None, axis=None,
            keepdims=None):
        dim, keepdim = _numpy_names(dim, keepdim, axis, keepdims)
        return statistics.var_or_std(self, "std", dim, unbiased, keepdim, correction)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return norm.norm(self, p, dim, keepdim, dtype)

    # ---- shapes -----------------------------------------------------------------------------
    def view(self, *sizes): return shape.View.apply(self, _resolve(self, _shape_args(sizes)))
    def reshape(self, *sizes): return shape.reshape(self, _resolve(self, _shape_args(sizes)))
    def view_as(self, other): return self.view(other.shape)
    def reshape_as(self, other): return self.reshape(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        if self.ndim == 0:
            return self.reshape(1)
        s, e = start_dim % self.ndim, end_dim % self.ndim
        return self if s == e else self.reshape(self.shape[:s] + (-1,) + self.shape[e + 1:])

    def expand(self, *sizes): return shape.Expand.apply(self, _shape_args(sizes))
    def expand_as(self, other): return self.expand(other.shape)

    def permute(self, *dims):
        dims = _shape_args(dims)
        if len(dims) != self.ndim:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match the "
                "length of the desired ordering of dimensions i.e. input.dim() = "
                f"{self.ndim} is not equal to len(dims) = {len(dims)}")
        dims = shape._dims(dims, self.ndim)
        if len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return shape.Permute.apply(self, dims)

    def transpose(self, dim0, dim1):  # a 0-d tensor accepts dims 0 and -1 (both mean itself)
        dims = shape._dims((dim0, dim1), self.ndim) or (0, 0)
        return shape.Transpose.apply(self, *dims)

    def t(self): return shape.T.apply(self)

    @property
    def T(self):
        if self.ndim != 2 and self.ndim != 1:
            _warn_once(T_OF_0D if self.ndim == 0 else T_OF_ND)
        return self.permute(*reversed(range(self.ndim)))

    @property
    def mT(self): return self.transpose(-2, -1)

    def squeeze(self, dim=None):
        if dim is None:
            return shape.Squeeze.apply(self, tuple(range(self.ndim)))
        node = shape.SqueezeDim if isinstance(dim, int) else shape.SqueezeDims
        return node.apply(self, shape.distinct_dims(dim, self.ndim))

    def unsqueeze(self, dim): return shape.Unsqueeze.apply(self, shape._dims(dim, self.ndim + 1)[0])
    def select(self, dim, index): return self[(slice(None),) * (dim % self.ndim) + (index,)]

    def narrow(self, dim, start, length):
        return self[(slice(None),) * (dim % self.ndim) + (slice(start, start + length),)]

    def split(self, split_size, dim=0): return indexing.split(self, split_size, dim)
    def chunk(self, chunks, dim=0): return indexing.chunk(self, chunks, dim)
    def gather(self, dim, index, *, sparse_grad=False): return gather.gather(self, dim, index)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        return gather.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim, index, src): return gather.scatter_add(self, dim, index, src)
    def unbind(self, dim=0): return indexing.unbind(self, dim)
    def __getitem__(self, key): return indexing.index(self, key)
    def __setitem__(self, key, value): _inplace.setitem(self, key, value)

    # ---- products ---------------------------------------------------------------------------
    def matmul(self, other): return linalg.matmul(self, _tensor_argument(other, "matmul", "other"))
    def mm(self, mat2): return linalg.Mm.apply(self, _tensor_argument(mat2, "mm", "mat2"))
    def mv(self, vec): return linalg.Mv.apply(self, _tensor_argument(vec, "mv", "vec"))
    def dot(self, other): return linalg.Dot.apply(self, _tensor_argument(other, "dot", "tensor"))
    def bmm(self, mat2): return linalg.Bmm.apply(self, _tensor_argument(mat2, "bmm", "mat2"))

    def __matmul__(self, other):  # anything but a tensor: Python's own TypeError, as PyTorch's
        return linalg.matmul(self, other) if isinstance(other, Tensor) else NotImplemented

    # ---- new tensors like this one (its dtype unless given) --------------------------------
    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return creation.ones(_shape_args(size), dtype=dtype or self.dtype, device=device,
                             requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return creation.zeros(_shape_args(size), dtype=dtype or self.dtype, device=device,
                              requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        return creation.full(size, fill_value, dtype=dtype or self.dtype, device=device,
                             requires_grad=requires_grad)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        _device.check(device)
        if isinstance(data, Tensor):
            warnings.warn(creation.COPY_CONSTRUCT_WARNING.format(call="tensor.new_tensor"),
                          UserWarning, stacklevel=2)
        return creation.copy_of(data, dtype or self.dtype, requires_grad)

    # ---- copies and types -------------------------------------------------------------------
    def clone(self):  # keeps the layout (PyTorch's default, torch.preserve_format)
        return shape.Clone.apply(self, True)

    def contiguous(self):  # a C-order copy
        return self if self.is_contiguous() else shape.Clone.apply(self)

    def to(self, *args, **kwargs):
        if not _TO_KEYWORDS.issuperset(kwargs):  # `requires_grad=` is not one (a tutorial tries it)
            raise TypeError(_to_signatures_error(args, kwargs))
        dtype = dtype_of_to(args, kwargs)  # a device named is checked (CUDA fails): CPU
        flags = [a for a in args if isinstance(a, bool)]  # non_blocking, then copy
        copy = kwargs.get("copy", len(flags) > 1 and flags[1])
        if copy:  # a new tensor even when nothing changes
            return shape.ToCopy.apply(self, dtype or self.dtype)
        return self if dtype is None or dtype is self.dtype else shape.ToCopy.apply(self, dtype)

    def cpu(self): return self

    def cuda(self, device=None, non_blocking=False):
        return self.to(_device.check("cuda" if device is None else device))

    def float(self): return self.to(_dtype.float32)
    def double(self): return self.to(_dtype.float64)
    def long(self): return self.to(_dtype.int64)
    def int(self): return self.to(_dtype.int32)
    def bool(self): return self.to(_dtype.bool)
    def half(self): return self.to(_dtype.float16)
    def short(self): return self.to(_dtype.int16)
    def char(self): return self.to(_dtype.int8)
    def byte(self): return self.to(_dtype.uint8)

    def _float_if_int(self):
        return self if self.dtype.is_floating_point else self.to(_dtype.float32)

    # ---- in place ---------------------------------------------------------------------------
    def add_(self, other, *, alpha=1): return _inplace.update(self, Tensor.add, other, alpha)
    def sub_(self, other, *, alpha=1): return _inplace.update(self, Tensor.sub, other, alpha)
    def mul_(self, other): return _inplace.update(self, Tensor.mul, other)
    def div_(self, other): return _inplace.update(self, Tensor.div, other)

    # `x += y` and the like are these methods, but for arrays (see __add__): as `+ - * /`, the
    # test is their first line, then `update` (`p -= lr * p.grad` is in every step)
    def __iadd__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        return _inplace.update(self, Tensor.add, other)

    def __isub__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        return _inplace.update(self, Tensor.sub, other)

    def __imul__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        return _inplace.update(self, Tensor.mul, other)

    def __itruediv__(self, other):
        if not isinstance(other, _OPERANDS):  # an array: numpy's turn
            return NotImplemented
        return _inplace.update(self, Tensor.div, other)

    def pow_(self, exponent):
        return _inplace.inplace(self, lambda t: t.pow(exponent), exponent,
                                reads=exponent if isinstance(exponent, Tensor) else None)

    def exp_(self): return _inplace.inplace(self, Tensor.exp)
    def relu_(self): return _inplace.inplace(self, Tensor.relu)
    def neg_(self): return _inplace.inplace(self, Tensor.neg)
    def sigmoid_(self): return _inplace.inplace(self, Tensor.sigmoid)
    def tanh_(self): return _inplace.inplace(self, Tensor.tanh)
    def zero_(self): return _inplace.zero(self)
    def fill_(self, value):
        return _inplace.inplace(self, lambda t: fill.fill(t, value), value, same_value=True)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        return _inplace.inplace(self, lambda t: gather.scatter(t, dim, index, src, value=value,
                                                               reduce=reduce), src)

    def scatter_add_(self, dim, index, src):
        return _inplace.inplace(self, lambda t: t.scatter_add(dim, index, src), src)

    def round_(self, decimals=0): return _inplace.inplace(self, lambda t: t.round(decimals))

    def clamp_(self, min=None, max=None):
        return _inplace.inplace(self, lambda t: t.clamp(min, max))

    def copy_(self, src):
        src = src if isinstance(src, Tensor) else tensor_of(np.asarray(src))
        return _inplace.inplace(self, lambda t: fill.Copy.apply(t, src), src, reads=src)

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        return self._overwrite(lambda: random._normal_values(self, mean, std, generator))

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        return self._overwrite(lambda: random._uniform_values(self, a, b, generator))

    def _overwrite(self, draw):
        """Replace the values with those `draw()` makes, with no history: for initialisers,
        which PyTorch runs in no_grad. A refused tensor draws nothing, as in PyTorch: the
        generator's next numbers stay for the next draw."""
        _inplace.check_inplace(self)
        _inplace.check_no_overlap(self)
        self._data[...] = draw()
        self._bump_version()
        return self

    # ---- methods that hand over to layers above the ops -------------------------------------
    # `loss.backward()` is the engine's own entry: from there a plain pass goes straight on
    backward = autograd.engine.tensor_backward


def _true_division(a, b):
    """The operands of a / b: promoted together first (an int tensor over a 0-d float64 tensor
    is float64), then integers made floats."""
    a, b = as_tensor_pair(a, b)
    if a._data.dtype.kind != "f":
        return a._float_if_int(), b._float_if_int()
    return a, b


def _counted_as_kernel_writes(source, out, writes):
    """`out`, a reduction's result, with the version PyTorch's kernel leaves it at when `source`
    is an inference tensor and inference mode is off: with no autograd key on its input, the
    kernel's in-place writes into its new, normal result are each counted (sum's one, mean's
    sum then division), where autograd's kernel counts none. tests/parity/
    test_transcripts_vs_torch.py, `sum_of_an_inference_tensor`."""
    if source._is_inference and not _grad_mode.state.inference:
        out._version_counter.value += writes
    return out


def _numpy_names(dim, keepdim, axis, keepdims):
    """PyTorch accepts numpy's `axis=` for `dim=` and `keepdims=` for `keepdim=`."""
    return (dim if axis is None else axis), (keepdim if keepdims is None else keepdims)


def _arg(pick, keepdim: bool):
    """argmax/argmin along `dim` (all elements when it is None), as `_on_values` calls it."""
    def index(values, dim):
        if values.dtype == bool:
            raise RuntimeError(f"{pick.__name__}(): does not support bool input")
        if values.size == 0:  # nothing to pick from: PyTorch's errors
            if dim is None:
                raise IndexError(f"{pick.__name__}(): Expected reduction dim to be specified for "
                                 "input.numel() == 0.")
            d = shape._dims(dim, values.ndim)[0] if values.ndim else 0
            if values.shape[d] == 0:
                raise IndexError(f"{pick.__name__}(): Expected reduction dim {d} to have non-zero "
                                 "size.")
        if dim is None:
            return np.asarray(pick(values))
        return np.asarray(pick(values, axis=dim, keepdims=keepdim))
    return index


def _resolve(t: Tensor, sizes: tuple) -> tuple:
    """The sizes with a single -1 worked out from the number of elements, when it divides."""
    sizes = tuple(int(s) for s in sizes)
    if sizes.count(-1) == 1:
        known = int(np.prod([s for s in sizes if s != -1]))
        if known and t.numel() % known == 0:
            sizes = tuple(t.numel() // known if s == -1 else s for s in sizes)
    return sizes


T_OF_ND = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
    "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
    "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
    "tensor.")
T_OF_0D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
_warned: set[str] = set()


def _warn_once(message: str) -> None:
    """PyTorch's TORCH_WARN_ONCE: the first time in a process only."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def dtype_of_to(args: tuple, kwargs: dict) -> Any:
    """What `tensor.to(...)` and `module.to(...)` were asked for, of the forms PyTorch takes:
    `.to(device)`, `.to(dtype)`, `.to(device, dtype)`, `.to(other_tensor)`, with keywords too.
    A device is checked (the CPU, or PyTorch's error for CUDA); the dtype (or None) returned."""
    found = None
    for arg in (*args, kwargs.get("device"), kwargs.get("dtype")):
        if arg is None or isinstance(arg, builtins.bool):
            continue
        if isinstance(arg, _dtype.dtype):
            found = arg
        elif isinstance(arg, Tensor):
            found = arg.dtype
        elif isinstance(arg, (str, _device.device, builtins.int)):
            _device.check(arg)
        else:
            raise TypeError(_to_signatures_error(args, kwargs))
    return found


_TO_KEYWORDS = frozenset({"device", "dtype", "non_blocking", "copy", "memory_format"})
_TO_SIGNATURES = (
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n")


def _to_signatures_error(args: tuple, kwargs: dict) -> str:
    """PyTorch's words when `tensor.to(...)` matches none of its three forms."""
    def name(value: Any) -> str:
        if isinstance(value, (_dtype.dtype, _device.device)):
            return "torch." + type(value).__name__
        return "Tensor" if isinstance(value, Tensor) else type(value).__name__
    got = [name(arg) for arg in args] + [f"{key}={name(value)}" for key, value in kwargs.items()]
    return (f"to() received an invalid combination of arguments - got ({', '.join(got)}"
            f"{', ' if len(got) == 1 and not args else ''}), but expected one of:\n"
            + _TO_SIGNATURES)


# The operators that take only a tensor or a number, as PyTorch's: anything else (a numpy array,
# None, a list, a string) gets NotImplemented, so that Python asks the other operand and then
# says "unsupported operand type(s) for +: 'Tensor' and 'NoneType'" (all but ==, and a / b's
# reflection, which PyTorch computes as b.reciprocal() * a: that product is then numpy's; @
# takes nothing but a tensor). One wrapper for these; `+ - * /`, their reflections and their
# in-place forms, in every step, test in their own body and go straight to their op
# (benchmarks/op_path.md, 2026-11-28 15:50: `z + b` 8.7 -> 6.7 µs, with add's alpha).
_ARRAY_REFUSING = ("__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
                   "__rpow__", "__and__", "__rand__", "__or__", "__ror__", "__xor__",
                   "__rxor__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__")


def _refusing_arrays(method: FunctionType) -> FunctionType:
    def operator(self, other):
        if isinstance(other, _OPERANDS):
            return method(self, other)
        return NotImplemented
    operator.__name__ = operator.__qualname__ = method.__name__
    return operator


def _operators() -> None:
    for name in _ARRAY_REFUSING:
        setattr(TensorOps, name, _refusing_arrays(getattr(TensorOps, name)))


def _attach(methods: type, cls: type) -> None:
    """Give `cls` every method and property defined in `methods`, as if written in its body
    (Python's own errors then name them so: "Tensor.split() got an unexpected keyword")."""
    prefix = methods.__name__ + "."
    for name, value in vars(methods).items():
        if isinstance(value, (FunctionType, property)):
            function = value.fget if isinstance(value, property) else value
            if function is not None and function.__qualname__.startswith(prefix):
                function.__qualname__ = cls.__name__ + "." + function.__qualname__[len(prefix):]
            setattr(cls, name, value)


_operators()
_attach(TensorOps, Tensor)
