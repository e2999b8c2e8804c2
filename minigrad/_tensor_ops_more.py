"""Tensor's methods, continued (see _tensor_ops.py): the names that public tutorials use beyond
the first set, added by how often they use them (scripts/api_coverage.py measures it). Each
hands over to an op in `minigrad.ops`; `_` methods change the tensor in place."""
from __future__ import annotations

import numpy as np

from . import _inplace
from ._tensor_ops import _attach, _shape_args
from .ops import (arguments, gather, index_write, inverse, linalg, logical, masking, norm,
                  pointwise_more, reduction, rounding, sampling, scaled_products, selection,
                  shape, sorting, statistics, tiling)
from .ops import transcendental as tr
from .ops.diagonal import diag as _diag
from .ops.diagonal import diagonal as _diagonal
from .ops.operands import type_name
from .tensor import Tensor


def _scaled_in_place(t: Tensor, name: str, a: Tensor, b: Tensor, beta, alpha) -> Tensor:
    """t.addmm_(...) and the like: the result must have t's own shape."""
    def compute(t: Tensor) -> Tensor:
        result = getattr(scaled_products, name)(t, a, b, beta, alpha)
        if result.shape != t.shape:
            raise RuntimeError(f"Bad in-place call: input tensor size {list(t.shape)} and output "
                               f"tensor size {list(result.shape)} should match")
        return result
    return _inplace.inplace(t, compute, a, b)


class MoreTensorOps:
    """The methods `_attach` gives Tensor: read them as Tensor's own."""

    # ---- element-wise -------------------------------------------------------------------------
    def square(self): return self.pow(2)
    def rsqrt(self): return tr.Rsqrt.apply(self._float_if_int())
    def log2(self): return tr.Log2.apply(self._float_if_int())
    def log10(self): return tr.Log10.apply(self._float_if_int())
    def log1p(self): return tr.Log1P.apply(self._float_if_int())
    def expm1(self): return tr.Expm1.apply(self._float_if_int())
    def exp2(self): return tr.Exp2.apply(self._float_if_int())
    def acos(self): return tr.Acos.apply(self._float_if_int())
    def asin(self): return tr.Asin.apply(self._float_if_int())
    def atan(self): return tr.Atan.apply(self._float_if_int())
    def sinh(self): return tr.Sinh.apply(self._float_if_int())
    def cosh(self): return tr.Cosh.apply(self._float_if_int())
    def erf(self): return tr.Erf.apply(self._float_if_int())
    def erfinv(self): return tr.Erfinv.apply(self._float_if_int())
    arccos, arcsin, arctan = acos, asin, atan
    def floor(self): return rounding.Floor.apply(self)
    def ceil(self): return rounding.Ceil.apply(self)
    def trunc(self): return rounding.Trunc.apply(self)
    def fmod(self, other): return rounding.fmod(self, other)
    def clamp_min(self, min):  # noqa: A002
        return selection.ClampMin.apply(selection.promoted_for_bounds(self, [min]), min)

    def clamp_max(self, max):  # noqa: A002
        return selection.ClampMax.apply(selection.promoted_for_bounds(self, [max]), max)
    subtract, multiply, divide = Tensor.sub, Tensor.mul, Tensor.div
    true_divide, true_divide_ = Tensor.div, Tensor.div_
    def where(self, condition, other): return selection.where(condition, self, other)
    def dist(self, other, p=2): return norm.dist(self, other, p)
    def lerp(self, end, weight): return pointwise_more.lerp(self, end, weight)

    def addcmul(self, tensor1, tensor2, *, value=1):
        return pointwise_more.addcmul(self, tensor1, tensor2, value)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return pointwise_more.addcdiv(self, tensor1, tensor2, value)

    def frac(self): return pointwise_more.frac(self)
    def hypot(self, other): return pointwise_more.hypot(self, other)
    def atan2(self, other): return pointwise_more.atan2(self, other)
    def arctan2(self, other): return pointwise_more.atan2(self, other, "arctan2")

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return pointwise_more.nan_to_num(self, nan, posinf, neginf)

    def type_as(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not "
                            f"{type_name(other)}")
        return self.to(other.dtype)

    # ---- truth values -------------------------------------------------------------------------
    def logical_and(self, other): return logical.logical(self, other, np.logical_and)
    def logical_or(self, other): return logical.logical(self, other, np.logical_or)
    def logical_xor(self, other): return logical.logical(self, other, np.logical_xor)
    def logical_not(self): return logical.logical_not(self)
    def bitwise_and(self, other): return self._bitwise(other, np.bitwise_and, "bitwise_and")
    def bitwise_or(self, other): return self._bitwise(other, np.bitwise_or, "bitwise_or")
    def bitwise_xor(self, other): return self._bitwise(other, np.bitwise_xor, "bitwise_xor")

    def bitwise_not(self):
        if self.dtype.is_floating_point:
            raise NotImplementedError(f'"bitwise_not_cpu" not implemented for '
                                      f"'{self.dtype.scalar_name}'")
        return ~self

    def cross(self, other, dim=None): return linalg.cross(self, other, dim)
    def unfold(self, dimension, size, step): return shape.unfold(self, dimension, size, step)
    def all(self, dim=None, keepdim=False): return logical.all_or_any(self, "all", dim, keepdim)
    def any(self, dim=None, keepdim=False): return logical.all_or_any(self, "any", dim, keepdim)

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return logical.isclose(self, other, rtol, atol, equal_nan)

    # ---- reductions along a dimension ---------------------------------------------------------
    def logsumexp(self, dim, keepdim=False): return statistics.logsumexp(self, dim, keepdim)
    def trace(self): return reduction.trace(self)
    def median(self, dim=None, keepdim=False): return reduction.median(self, dim, keepdim)

    def cumprod(self, dim=None, *, dtype=None):
        if dim is None:
            raise TypeError('cumprod() missing 1 required positional arguments: "dim"')
        return statistics.cumprod(self, dim, dtype)

    def softmax(self, dim, dtype=None):
        return statistics.softmax(self if dtype is None else self.to(dtype), dim)

    def log_softmax(self, dim, dtype=None):
        return statistics.log_softmax(self if dtype is None else self.to(dtype), dim)

    # ---- order --------------------------------------------------------------------------------
    def sort(self, dim=-1, descending=False, *, stable=None):  # None: not given
        return sorting.sort(self, dim, descending, stable)

    def argsort(self, dim=-1, descending=False, *, stable=False):
        return sorting.argsort(self, dim, descending)

    def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002
        return sorting.topk(self, k, dim, largest, sorted)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
        return sorting.unique(self, sorted, return_inverse, return_counts, dim)

    def nonzero(self, *, as_tuple=False): return sorting.nonzero(self, as_tuple=as_tuple)
    def bincount(self, weights=None, minlength=0): return sorting.bincount(self, weights, minlength)
    def argwhere(self): return sorting.nonzero(self)
    def histc(self, bins=100, min=0, max=0):  # noqa: A002
        return sorting.histc(self, bins, min, max)

    # ---- picking by mask or position ----------------------------------------------------------
    def masked_fill(self, mask, value): return masking.masked_fill(self, mask, value)
    def masked_select(self, mask): return masking.masked_select(self, mask)
    def index_select(self, dim, index): return masking.index_select(self, dim, index)

    def index_add(self, dim, index, source, *, alpha=1):
        return index_write.index_add(self, dim, index, source, alpha)

    def index_fill(self, dim, index, value): return index_write.index_fill(self, dim, index, value)
    def index_copy(self, dim, index, source):
        return index_write.index_copy(self, dim, index, source)

    def index_put(self, indices, values, accumulate=False):
        return index_write.index_put(self, indices, values, accumulate)

    def triu(self, diagonal=0): return masking.triangle(self, True, diagonal)
    def tril(self, diagonal=0): return masking.triangle(self, False, diagonal)

    # ---- copies arranged anew -----------------------------------------------------------------
    def repeat(self, *sizes): return tiling.repeat(self, _shape_args(sizes))

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        return tiling.repeat_interleave(self, repeats, dim)

    def roll(self, shifts, dims=None): return tiling.roll(self, shifts, dims)
    def flip(self, *dims, **kwargs): return tiling.flip(self, dims, kwargs)
    def fliplr(self): return tiling.fliplr(self)
    def flipud(self): return tiling.flipud(self)
    def diagonal(self, offset=0, dim1=0, dim2=1): return _diagonal(self, offset, dim1, dim2)
    def diag(self, diagonal=0): return _diag(self, diagonal)

    def matrix_power(self, n): return linalg.matrix_power(self, n)
    def inverse(self): return inverse.inv(self)
    def det(self): return inverse.det(self)
    def take(self, index): return gather.take(self, index)
    def unflatten(self, dim, sizes): return tiling.unflatten(self, dim, sizes)
    def sum_to_size(self, *size): return tiling.sum_to_size(self, _shape_args(size))

    def outer(self, vec2):
        """PyTorch's composition: self as a column, times vec2 (ViewBackward0, MulBackward0)."""
        if self.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument self, but got {self.ndim}-D")
        if vec2.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
        return self.reshape(self.shape[0], 1) * vec2

    ger = outer

    # ---- a product scaled and added: beta * self + alpha * product ----------------------------
    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        return scaled_products.addmm(self, mat1, mat2, beta, alpha)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        return scaled_products.addmv(self, mat, vec, beta, alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return scaled_products.baddbmm(self, batch1, batch2, beta, alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return scaled_products.addbmm(self, batch1, batch2, beta, alpha)

    def kron(self, other): return scaled_products.kron(self, other)

    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        return _scaled_in_place(self, "addmm", mat1, mat2, beta, alpha)

    def addmv_(self, mat, vec, *, beta=1, alpha=1):
        return _scaled_in_place(self, "addmv", mat, vec, beta, alpha)

    def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return _scaled_in_place(self, "baddbmm", batch1, batch2, beta, alpha)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return _scaled_in_place(self, "addbmm", batch1, batch2, beta, alpha)

    def histogram(self, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
        return sorting.histogram(self, bins, range=range, weight=weight, density=density)

    # ---- random draws -------------------------------------------------------------------------
    def bernoulli(self, p=None, *, generator=None):
        return sampling.bernoulli(self, p, generator=generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return sampling.multinomial(self, num_samples, replacement, generator=generator)

    def random_(self, *bounds, generator=None):
        """random_(), random_(to) or random_(from, to): whole numbers drawn uniformly."""
        from_, to = (0, None) if not bounds else (0, bounds[0]) if len(bounds) == 1 else bounds
        return self._overwrite(lambda: sampling.random_values(self, from_, to, generator))

    def exponential_(self, lambd=1.0, *, generator=None):
        return self._overwrite(lambda: sampling.exponential(self, lambd, generator))

    def bernoulli_(self, p=0.5, *, generator=None):
        if isinstance(p, Tensor):
            return self._overwrite(lambda: sampling.draw(self.shape, p._data, p._data.dtype,
                                                         generator).astype(self._data.dtype))
        return self._overwrite(lambda: sampling.draw(self.shape, p, np.float64,
                                                     generator).astype(self._data.dtype))

    # ---- in place -----------------------------------------------------------------------------
    def masked_fill_(self, mask, value):
        return _inplace.inplace(self, lambda t: t.masked_fill(mask, value), value)

    def clamp_min_(self, min): return _inplace.inplace(self, lambda t: t.clamp_min(min))  # noqa: A002
    def clamp_max_(self, max): return _inplace.inplace(self, lambda t: t.clamp_max(max))  # noqa: A002
    def abs_(self): return _inplace.inplace(self, Tensor.abs)

    # ---- a new shape in place -----------------------------------------------------------------
    def unsqueeze_(self, dim):
        dim = shape._dims(dim, self.ndim + 1)[0]
        return _inplace.reshape_in_place(self, lambda t: shape.UnsqueezeInPlace.apply(t, dim))

    def squeeze_(self, dim=None):
        if dim is None:
            dims = tuple(range(self.ndim))
            return _inplace.reshape_in_place(self, lambda t: shape.SqueezeInPlace.apply(t, dims))
        dims = shape.distinct_dims(dim, self.ndim)
        node = shape.SqueezeDimInPlace if isinstance(dim, int) else shape.SqueezeDimsInPlace
        return _inplace.reshape_in_place(self, lambda t: node.apply(t, dims))

    def t_(self):
        if self.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                               f"{self.ndim}D")
        return _inplace.reshape_in_place(self, shape.TInPlace.apply)

    def index_add_(self, dim, index, source, *, alpha=1):
        return _inplace.inplace(self, lambda t: t.index_add(dim, index, source, alpha=alpha),
                                source)

    def index_put_(self, indices, values, accumulate=False):
        return _inplace.inplace(self, lambda t: t.index_put(indices, values, accumulate), values)

    def index_copy_(self, dim, index, source):
        return _inplace.inplace(self, lambda t: t.index_copy(dim, index, source), source)

    def index_fill_(self, dim, index, value):
        return _inplace.inplace(
            self, lambda t: index_write.index_fill(t, dim, index, value, in_place=True), value)

    def lerp_(self, end, weight):
        return _inplace.inplace(self, lambda t: t.lerp(end, weight), end, weight)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return _inplace.inplace(self, lambda t: t.addcmul(tensor1, tensor2, value=value),
                                tensor1, tensor2)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return _inplace.inplace(self, lambda t: t.addcdiv(tensor1, tensor2, value=value),
                                tensor1, tensor2)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return _inplace.inplace(self, lambda t: t.nan_to_num(nan, posinf, neginf))

    def sqrt_(self): return _inplace.inplace(self, Tensor.sqrt)
    def erfinv_(self): return _inplace.inplace(self, Tensor.erfinv)
    def log_(self): return _inplace.inplace(self, Tensor.log)
    def sin_(self): return _inplace.inplace(self, Tensor.sin)
    def cos_(self): return _inplace.inplace(self, Tensor.cos)
    def floor_(self): return _inplace.inplace(self, Tensor.floor)
    def ceil_(self): return _inplace.inplace(self, Tensor.ceil)
    def square_(self): return _inplace.inplace(self, Tensor.square)

    # ---- where the values live ----------------------------------------------------------------
    def element_size(self): return self._data.itemsize

    @property
    def itemsize(self): return self._data.itemsize

    @property
    def nbytes(self): return self._data.nbytes


_attach(MoreTensorOps, Tensor)
for _name in arguments.SIGNATURES:  # PyTorch's TypeError for arguments no signature takes
    setattr(Tensor, _name, arguments.checked(getattr(Tensor, _name), _name))
del _name
