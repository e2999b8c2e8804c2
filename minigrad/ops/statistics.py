"""var, std, prod, amax and amin: the reductions tutorials reach for beyond sum and mean.
var and std are computed in double precision and rounded once, as PyTorch's CPU kernels
accumulate them; their backward is PyTorch's formula written with tensor ops (so it is itself
differentiable)."""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._grad_mode import is_grad_enabled
from ..autograd.function import Function
from ..fidelity import vector_math
from ..fidelity.softmax import (log_softmax_backward_like_torch, log_softmax_like_torch,
                                softmax_backward_like_torch, softmax_like_torch)
from ..tensor import Tensor, tensor_of
from .operands import result_like
from .pointwise import MulScalar
from .reduction import _restore
from .shape import _dims, distinct_dims, stack


def _all_or(dims: Any, ndim: int) -> tuple:
    """The dimensions to reduce: None or () mean all of them."""
    if dims is None:
        return tuple(range(ndim))
    return distinct_dims(dims, ndim) or tuple(range(ndim))


class Var(Function):
    """d var(a) = 2 (a - mean(a)) / (N - correction)"""
    node_name = "VarBackward0"

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim, root=False):
        ctx.save_for_backward(a)
        ctx.whole = dims is None  # no `dim` given: PyTorch's formula differs (backward)
        dims = tuple(range(a.ndim)) if dims is None else dims
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        ctx.dof = int(np.prod([a.shape[d] for d in dims], dtype=np.int64)) - correction
        wide = a._data.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # numpy's own "Degrees of freedom"
            var = np.var(wide, axis=dims, ddof=correction, keepdims=keepdim) \
                if a.numel() else np.full(_kept_shape(a.shape, dims, keepdim), np.nan)
        if root:  # the square root is taken before rounding, as PyTorch's kernel does
            var = np.sqrt(var)
        return result_like(np.asarray(var).astype(a._data.dtype), a)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's var_backward, operation for operation (a graph of the backward shows them):
        without `dim` (or for a 0-d tensor) the whole tensor's mean; with it, the gradient's
        dimensions given back when `a` has more than one, and the mean along `dim`, kept."""
        a = ctx.saved_tensors[0]
        whole = ctx.whole or a.ndim == 0
        if not whole and a.ndim > 1:
            grad = _restore(grad, a.shape, ctx.dims, ctx.keepdim)
        if ctx.dof <= 0 and len(ctx.dims) == a.ndim:  # PyTorch's answer: nan everywhere
            return MulScalar.apply(grad.expand(a.shape), np.nan), None, None, None, None
        mean = a.mean() if whole else a.mean(ctx.dims, keepdim=True)
        scale = 2.0 / ctx.dof if ctx.dof else math.inf  # a number times grad: MulBackward1
        return MulScalar.apply(grad, scale) * (a - mean), None, None, None, None


class Std(Var):
    """d std(a) = (a - mean(a)) / ((N - correction) std(a)), 0 where std(a) is 0"""
    node_name = "StdBackward0"

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim):
        out = Var.forward(ctx, a, dims, correction, keepdim, root=True)
        ctx.save_for_backward(a, out)  # the result itself: a second derivative goes through it
        return out

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's std_backward: var's, of grad / (2 std), 0 where std is 0"""
        result = ctx.saved_tensors[1]
        return Var.backward(ctx, (grad / MulScalar.apply(result, 2)).masked_fill_(result == 0, 0))


def _kept_shape(shape: tuple, dims: tuple, keepdim: bool) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(shape) if keepdim or i not in dims)


def spread_arguments(a: Tensor, name: str, refused: str, dim: Any, unbiased: Any,
                     correction: Any) -> tuple[Any, Any]:
    """The dims (None: all) and correction of var, std, var_mean or std_mean, with PyTorch's
    refusal (`refused`) of an integer tensor and its warning when no degree of freedom is left;
    `x.var(False)` is PyTorch's old unbiased-only form."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if not a.dtype.is_floating_point:
        raise RuntimeError(f"{refused} only support floating point and complex dtypes")
    if correction is None:
        correction = 1 if unbiased else 0
    dims = _all_or(dim, a.ndim)
    if int(np.prod([a.shape[d] for d in dims], dtype=np.int64)) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=4)
    return None if dim is None else dims, correction


def var_or_std(a: Tensor, name: str, dim: Any = None, unbiased: Any = True,
               keepdim: bool = False, correction: Any = None) -> Tensor:
    """`a.var(...)` or `a.std(...)`."""
    dims, correction = spread_arguments(a, name, "std and var", dim, unbiased, correction)
    return (Std if name == "std" else Var).apply(a, dims, correction, keepdim)


class Prod(Function):
    """d prod(a) = prod(a) / a per element (the product of the others where a has zeros)"""
    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        ctx.dim, ctx.keepdim = dim, keepdim
        data = a._data.astype(np.int64) if a._data.dtype.kind in "biu" else a._data
        out = tensor_of(np.asarray(np.prod(data, axis=dim, keepdims=keepdim)))
        ctx.save_for_backward(a, out)  # the result itself: a second derivative goes through it
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if not a.ndim:  # PyTorch's prod_backward: the gradient itself (not grad·prod/a, NaN at inf)
            return grad, None, None
        dims = None if ctx.dim is None else (ctx.dim,)  # (the whole product: nothing to restore)
        grad = _restore(grad, a.shape, dims, ctx.keepdim)
        zeros = np.count_nonzero(a._data == 0)
        if not zeros:
            return grad * (_restore(out, a.shape, dims, ctx.keepdim) / a), None, None
        if ctx.dim is None and zeros > 1 and not is_grad_enabled():
            # Two zeros make every product of the others 0: PyTorch's zeros (+0, whatever the
            # signs, NaNs or infinities), unless the backward is itself recorded
            return tensor_of(np.zeros_like(a._data)), None, None
        # With a zero, prod / a is 0 / 0 there: the product of the others, from the products
        # before and after each element.
        flat = a._data.reshape(-1) if ctx.dim is None else a._data
        axis = 0 if ctx.dim is None else ctx.dim
        ones = np.ones_like(np.take(flat, [0], axis=axis))
        before = np.cumprod(np.concatenate([ones, flat], axis=axis), axis=axis)
        after = np.flip(np.cumprod(np.flip(np.concatenate([flat, ones], axis=axis), axis),
                                   axis=axis), axis)
        n = flat.shape[axis]
        others = (np.take(before, range(n), axis=axis)
                  * np.take(after, range(1, n + 1), axis=axis)).reshape(a.shape)
        return grad * tensor_of(others.astype(a._data.dtype)), None, None


class ProdDim(Prod):
    node_name = "ProdBackward1"


def prod(a: Tensor, dim: int | None = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    if dim is None:
        return Prod.apply(a, None, False)
    return ProdDim.apply(a, _all_or(dim, a.ndim)[0] if a.ndim else None, keepdim)


class Amax(Function):
    """amax/amin: the gradient is shared evenly among the elements that reached the extreme"""
    node_name = "AmaxBackward0"

    @staticmethod
    def forward(ctx, a, dims, keepdim, pick=np.max):
        ctx.dims, ctx.keepdim, ctx.shape = dims, keepdim, a.shape
        kept = pick(a._data, axis=dims, keepdims=True)
        hits = a._data == kept
        ctx.hits = tensor_of(hits)
        ctx.count = tensor_of(hits.sum(axis=dims, keepdims=True).astype(a._data.dtype))
        return result_like(kept if keepdim else np.squeeze(kept, axis=dims), a)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's scale_grad_by_count: (grad / count) * hits, the reduced dimensions given
        back by a reshape (ViewBackward0); a product with the mask, so a negative gradient
        leaves -0 where the extreme was not, as in PyTorch"""
        if not ctx.keepdim:
            grad = grad.reshape([1 if d in ctx.dims else n for d, n in enumerate(ctx.shape)])
        return grad / ctx.count * ctx.hits, None, None, None


class Amin(Amax):
    node_name = "AminBackward0"


def amax_or_amin(a: Tensor, name: str, dim: Any = (), keepdim: bool = False) -> Tensor:
    if a.numel() == 0:  # nothing to pick from: PyTorch's errors
        given = [] if dim is None else [dim] if isinstance(dim, int) else list(dim)
        if not given:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        for d in given:
            if a.shape[_dims(d, a.ndim)[0]] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    if name == "amax":
        return Amax.apply(a, _all_or(dim, a.ndim), keepdim, np.max)
    return Amin.apply(a, _all_or(dim, a.ndim), keepdim, np.min)


class Cumsum(Function):
    """running sums along dim: d = the gradient's running sums taken from the other end"""
    node_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        data = a._data.astype(np.int64) if a._data.dtype.kind in "biu" else a._data
        if not a.ndim:
            return tensor_of(data.copy())
        # PyTorch's running sum of float32 is kept in float64 (its CPU acc_type), each partial
        # sum rounded once: [1e8, 1, -1e8, 1] sums to [1e8, 1e8, 1, 2], not float32's [.., 0, 1]
        wide = np.float64 if data.dtype == np.float32 else None
        out = np.cumsum(data, axis=dim, dtype=wide).astype(data.dtype, copy=False)
        if out.dtype.kind == "f":
            out += 0.0  # PyTorch's running sum starts from +0.0: a leading -0.0 becomes 0.0
        return tensor_of(out)

    @staticmethod
    def backward(ctx, grad):
        if not grad.ndim:
            return grad, None
        # the running sums from the end, as PyTorch's formula takes them (its nodes in a graph
        # of the backward: FlipBackward0, CumsumBackward0, FlipBackward0)
        return grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim), None


def cumsum(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    return Cumsum.apply(a, _dims(dim, a.ndim)[0] if a.ndim else 0)


class Cumprod(Function):
    """running products along dim. With no zero in the input, d = (the running sums, from the
    end, of out·g) / a; a zero stops the products after it, so PyTorch's formula splits there:
    before the first zero as above, at it the sum over later outputs of g times the product of
    the other factors, after it 0"""
    node_name = "CumprodBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        data = a._data
        if data.dtype.kind in "biu":
            out = tensor_of(np.cumprod(data.astype(np.int64), axis=dim) if a.ndim else
                         data.astype(np.int64))
        else:  # PyTorch multiplies float32 in float64
            wide = np.cumprod(data, axis=dim, dtype=np.float64) if a.ndim else data
            out = tensor_of(np.asarray(wide, dtype=data.dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):  # with a graph of the backward pass: tensor operations
        a, out = ctx.saved_tensors
        if a.numel() <= 1 or a.ndim == 0:
            return grad, None
        d = ctx.dim
        if not (a._data == 0).any():
            return (out * grad).flip(d).cumsum(d).flip(d) / a, None
        if not is_grad_enabled():  # a zero, no graph of this pass: PyTorch's O(n) formula
            return tensor_of(_cumprod_gradient(a._data, out._data, grad._data, d)), None
        # a zero: for each i, the sum over j >= i of g_j times the product of the factors up
        # to j but a_i (O(n²), as PyTorch's formula for this case under create_graph)
        n, parts = a.shape[d], []
        for i in range(n):
            others = a.index_fill(d, tensor_of(np.array([i])), 1.0).cumprod(d)
            parts.append((others * grad).narrow(d, i, n - i).sum(d))
        return stack(parts, d), None

    @staticmethod
    def _backward_on_arrays(ctx, grad):
        a, out = ctx.saved_tensors
        if a.numel() <= 1 or a.ndim == 0:
            return grad, None
        return _cumprod_gradient(a._data, out._data, grad, ctx.dim), None


def _reversed_cumsum(x: np.ndarray) -> np.ndarray:
    """running sums from the end of the last axis, added in float64 as PyTorch's cumsum does"""
    return np.flip(np.cumsum(np.flip(x, -1), -1, dtype=np.float64), -1).astype(x.dtype)


def _cumprod_gradient(x: np.ndarray, out: np.ndarray, g: np.ndarray, dim: int) -> np.ndarray:
    x, out, g = (np.moveaxis(np.broadcast_to(v, x.shape), dim, -1) for v in (x, out, g))
    zeros_so_far = np.cumsum(x == 0, axis=-1)
    before = zeros_so_far == 0  # before the first zero of its row
    safe = np.where(before, x, 1)  # (no division by zero where the result is not used)
    grad = np.where(before, _reversed_cumsum(np.where(before, out * g, 0)) / safe, 0)
    first = (x == 0) & (zeros_so_far == 1)
    if first.any():  # the product of the factors before it, times the sum over the outputs
        # up to the second zero of g times the factors after it (PyTorch's: what lies beyond
        # the second zero is never read, so an inf or NaN there does not reach the sum)
        ones = np.ones(x.shape[:-1] + (1,), dtype=x.dtype)
        product_before = np.concatenate([ones, out[..., :-1]], axis=-1)
        up_to_second = zeros_so_far == 1
        after = np.where(up_to_second, np.where(first, 1, x), 1)
        factors_after = np.cumprod(after, -1, dtype=np.float64).astype(x.dtype)
        later = np.sum(np.where(up_to_second, g * factors_after, 0), -1, keepdims=True)
        grad = np.where(first, product_before * later, grad)
    return np.moveaxis(grad.astype(x.dtype), -1, dim)


def cumprod(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    return Cumprod.apply(a, _dims(dim, a.ndim)[0] if a.ndim else 0)


class Logsumexp(Function):
    """log(sum(exp(a))) along dims, the maximum taken out first so that exp cannot overflow:
    d = exp(a - result), the softmax along those dims"""
    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        x = a._data
        top = np.max(x, axis=dims, keepdims=True) if a.numel() else np.zeros((1,) * a.ndim)
        top = np.where(np.isinf(top), 0, top).astype(x.dtype)
        # exp and log as PyTorch's at::exp and log_ compute them (its vector math's bits)
        summed = np.sum(vector_math.exp_like_torch(x - top), axis=dims, keepdims=True)
        out = result_like(vector_math.log_like_torch(summed) + top, a)
        ctx.dims, ctx.keepdim = dims, keepdim
        out = out if keepdim else tensor_of(np.squeeze(out._data, axis=dims))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        grad = _restore(grad, a.shape, ctx.dims, ctx.keepdim)
        out = _restore(out, a.shape, ctx.dims, ctx.keepdim)
        return grad * (a - out).exp(), None, None


def logsumexp(a: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    return Logsumexp.apply(a._float_if_int(), _all_or(dim, a.ndim), keepdim)


class LogSoftmax(Function):
    """d log_softmax(x) = g - softmax(x) * sum(g) along dim"""
    node_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        # (x - max) - log(sum(exp(x - max))), rounded as PyTorch's kernel rounds it (the max
        # keeps exp finite)
        values = log_softmax_like_torch(np.atleast_1d(x._data), dim)
        return _saved_result(ctx, x, values, dim)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        if out.ndim == 0:  # softmax of one number is 1: the gradient cancels exactly
            return grad - grad, None
        return LogSoftmaxBackwardData.apply(grad, out, ctx.dim), None


class LogSoftmaxBackwardData(Function):
    """log_softmax's backward as an op of its own, PyTorch's _log_softmax_backward_data:
    g - exp(out) * sum(g) along dim; differentiated again, derivatives.yaml's formulas."""
    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, out, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, out)
        # grad - exp(out) * grad.sum(dim), rounded as PyTorch's backward kernel rounds it
        return result_like(log_softmax_backward_like_torch(grad._data, out._data, dim), out)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        need, dim = ctx.needs_input_grad, ctx.dim
        return (gg - (gg * out.exp()).sum(dim, keepdim=True) if need[0] else None,
                -grad.sum(dim, keepdim=True) * out.exp() * gg if need[1] else None, None)


class Softmax(Function):
    """d softmax(x) = s * (g - sum(g * s)) along dim"""
    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        # exp(x - max) / sum, rounded as PyTorch's kernel rounds it (the max keeps exp finite)
        values = softmax_like_torch(np.atleast_1d(x._data), dim)
        return _saved_result(ctx, x, values, dim)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        if out.ndim == 0:
            return grad - grad, None
        return SoftmaxBackwardData.apply(grad, out, ctx.dim), None


class SoftmaxBackwardData(Function):
    """softmax's backward as an op of its own, PyTorch's _softmax_backward_data:
    out * (g - sum(g * out)) along dim; differentiated again, derivatives.yaml's formulas (the
    op again for g; softmax_double_backward for out)."""
    node_name = "SoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, out, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, out)
        # out * (grad - (grad * out).sum(dim)), rounded as PyTorch's backward kernel rounds it
        return result_like(softmax_backward_like_torch(grad._data, out._data, dim), out)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        need, dim = ctx.needs_input_grad, ctx.dim
        return (SoftmaxBackwardData.apply(gg, out, dim) if need[0] else None,
                grad * gg - (out * grad).sum(dim, keepdim=True) * gg
                - grad * (out * gg).sum(dim, keepdim=True) if need[1] else None, None)


def _saved_result(ctx, x: Tensor, values: np.ndarray, dim: int) -> Tensor:
    """Softmax's and LogSoftmax's result in `x`'s shape (a 0-d input was computed as 1-d) and
    dtype, saved with `dim` for backward, which needs only the result."""
    result = tensor_of(values.reshape(x.shape).astype(x._data.dtype, copy=False))
    ctx.dim = dim
    ctx.save_for_backward(result)
    return result


def softmax(a: Tensor, dim: int) -> Tensor:
    """exp(x) / sum(exp(x)) along `dim`, computed without overflow (Tensor.softmax, F.softmax)."""
    return Softmax.apply(a, _softmax_dim(a, dim, "softmax"))


def log_softmax(a: Tensor, dim: int) -> Tensor:
    """x - log(sum(exp(x))) along `dim`, with the max subtracted first so exp cannot overflow."""
    return LogSoftmax.apply(a, _softmax_dim(a, dim, "log_softmax"))


def _softmax_dim(a: Tensor, dim: int, name: str) -> int:
    """`dim` counted from 0; an integer input refused with PyTorch's words (its kernel's name
    says whether dim is the last)."""
    d = _dims(dim, a.ndim)[0] if a.ndim else 0
    if not a.dtype.is_floating_point:
        kernel = "lastdim_kernel_impl" if d == max(a.ndim - 1, 0) else "kernel_impl"
        raise NotImplementedError(f'"{name}_{kernel}" not implemented for '
                                  f"'{a.dtype.scalar_name}'")
    return d
