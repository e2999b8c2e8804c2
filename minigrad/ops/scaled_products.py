"""A matrix product scaled and added to a tensor, as BLAS's gemm computes it: addmm
(beta·input + alpha·mat1 @ mat2), addmv (a matrix times a vector), baddbmm (batch by batch)
and addbmm (the batch's products summed), and kron, the Kronecker product, composed as
PyTorch composes it. Gradients are derivatives.yaml's: grad·beta for the input, the product's
gradients times alpha.

Values: PyTorch hands these to MKL's gemm, whose order of additions depends on the shapes and
strides in ways no published algorithm gives; minigrad computes alpha·(mat1 @ mat2) +
beta·input in the dtype, exact where the numbers are (small integers, halves) and within an ulp
or two of PyTorch's elsewhere. With beta = 0 the input is not read (its nan or inf does not
show), as in BLAS."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..fidelity.products import matmul_like_torch
from ..tensor import Tensor, tensor_of
from .scalars import MulScalar
from .shape import UnsafeView, expand_error


def _scaled(t: Tensor | None, number: float) -> Tensor | None:
    """maybe_multiply: t itself for 1, else t times the number (MulBackward1 when recorded)."""
    return t if t is None or number == 1 else MulScalar.apply(t, number)


def _word(t: Tensor) -> str:
    return t.dtype.scalar_name


class _AddProduct(Function):
    """beta · input + alpha · product(a, b): subclasses say which product and its gradients."""

    @staticmethod
    def forward(ctx, input, a, b, beta, alpha):
        ctx.beta, ctx.alpha = beta, alpha
        ctx.save_for_backward(a if ctx.needs_input_grad[2] else None,
                              b if ctx.needs_input_grad[1] else None)
        product = ctx._forward_cls.product(a._data, b._data)
        dtype = product.dtype.type
        value = product if alpha == 1 else dtype(alpha) * product
        if beta != 0:
            value = value + (input._data if beta == 1 else dtype(beta) * input._data)
        return tensor_of(np.asarray(value, dtype=product.dtype))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need = ctx.needs_input_grad
        d_a = ctx._forward_cls.grad_a(grad, b) if need[1] else None
        d_b = ctx._forward_cls.grad_b(grad, a) if need[2] else None
        return (_scaled(grad, ctx.beta) if need[0] else None, _scaled(d_a, ctx.alpha),
                _scaled(d_b, ctx.alpha), None, None)


class Addmm(_AddProduct):
    node_name = "AddmmBackward0"
    product = staticmethod(matmul_like_torch)
    grad_a = staticmethod(lambda grad, b: grad.mm(b.t()))
    grad_b = staticmethod(lambda grad, a: a.t().mm(grad))


class Addmv(_AddProduct):
    node_name = "AddmvBackward0"
    product = staticmethod(matmul_like_torch)
    grad_a = staticmethod(lambda grad, v: grad.reshape(-1, 1) * v)  # grad.ger(vec)
    grad_b = staticmethod(lambda grad, a: a.t().mv(grad))


class Baddbmm(_AddProduct):
    node_name = "BaddbmmBackward0"
    product = staticmethod(matmul_like_torch)
    grad_a = staticmethod(lambda grad, b: grad.bmm(b.transpose(1, 2)))
    grad_b = staticmethod(lambda grad, a: a.transpose(1, 2).bmm(grad))


class Addbmm(_AddProduct):
    node_name = "AddbmmBackward0"
    product = staticmethod(lambda a, b: matmul_like_torch(a, b).sum(axis=0))
    grad_a = staticmethod(lambda grad, b: grad.unsqueeze(0).expand(
        b.shape[0], grad.shape[0], b.shape[2]).bmm(b.transpose(1, 2)))
    grad_b = staticmethod(lambda grad, a: a.transpose(1, 2).bmm(grad.unsqueeze(0).expand(
        a.shape[0], grad.shape[0], grad.shape[1])))


def _check_input(input: Tensor, shape: tuple) -> None:
    """The input must expand to the product's shape (PyTorch's expand error otherwise)."""
    if not (len(input.shape) <= len(shape) and all(
            s in (1, t) for s, t in zip(reversed(input.shape), reversed(shape)))):
        raise expand_error(tuple(input.shape), shape, input.dtype)


def _check_dtypes(input: Tensor, other: Tensor) -> None:
    if input.dtype is not other.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_word(input)} and "
                           f"{_word(other)}")


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta: float = 1,
          alpha: float = 1) -> Tensor:
    for t, name in ((mat1, "mat1"), (mat2, "mat2")):
        if t.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {t.ndim}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x"
                           f"{mat1.shape[1]} and {mat2.shape[0]}x{mat2.shape[1]})")
    _check_input(input, (mat1.shape[0], mat2.shape[1]))
    _check_dtypes(input, mat2)
    _check_dtypes(mat1, mat2)
    return Addmm.apply(input, mat1, mat2, beta, alpha)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, beta: float = 1, alpha: float = 1) -> Tensor:
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, "
                           f"{vec.ndim}")
    if mat.shape[1] != vec.shape[0] or (input.ndim == 1 and input.shape[0] not in (1,
                                                                                  mat.shape[0])):
        size = input.shape[0] if input.ndim else 1
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({mat.shape[0]}x"
                           f"{mat.shape[1]}), vec ({vec.shape[0]})")
    if not input.dtype is mat.dtype is vec.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{_word(input)}, {_word(mat)}, and {_word(vec)}")
    return Addmv.apply(input, mat, vec, beta, alpha)


def _check_batches(batch1: Tensor, batch2: Tensor) -> None:
    for t, name in ((batch1, "batch1"), (batch2, "batch2")):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{batch1.shape[0]} and {batch2.shape[0]}")
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x"
                           f"{batch1.shape[2]} and {batch2.shape[1]}x{batch2.shape[2]})")
    _check_dtypes(batch1, batch2)


def _expands_to(input: Tensor, batch1: Tensor, batch2: Tensor, *leading: int) -> None:
    """PyTorch expands the input to the product's sizes (read from the batches as they are)
    before it checks them."""
    if batch1.ndim >= 2 and batch2.ndim >= 3:
        _check_input(input, (*leading, batch1.shape[1], batch2.shape[2]))


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, beta: float = 1,
            alpha: float = 1) -> Tensor:
    _expands_to(input, batch1, batch2, batch1.shape[0])
    if batch1.ndim == 3 and batch2.ndim == 3 and (
            batch2.shape[0] != batch1.shape[0] or batch2.shape[1] != batch1.shape[2]):
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch1.shape[0]}, {batch1.shape[2]}] but got: "
                           f"[{batch2.shape[0]}, {batch2.shape[1]}].")
    _check_batches(batch1, batch2)
    _check_input(input, (batch1.shape[0], batch1.shape[1], batch2.shape[2]))
    _check_dtypes(input, batch1)
    return Baddbmm.apply(input, batch1, batch2, beta, alpha)


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, beta: float = 1,
           alpha: float = 1) -> Tensor:
    _expands_to(input, batch1, batch2)
    _check_batches(batch1, batch2)
    _check_input(input, (batch1.shape[1], batch2.shape[2]))
    _check_dtypes(input, batch1)
    return Addbmm.apply(input, batch1, batch2, beta, alpha)


def kron(a: Tensor, b: Tensor) -> Tensor:
    """Every entry of a times all of b, in blocks: PyTorch's KronImpl, a view of each with
    their dimensions interleaved (a's sizes at even places, b's at odd), multiplied, and viewed
    as the result (UnsafeViewBackward0, MulBackward0)."""
    ndim = max(a.ndim, b.ndim)
    a_sizes = (1,) * (ndim - a.ndim) + tuple(a.shape)
    b_sizes = (1,) * (ndim - b.ndim) + tuple(b.shape)
    a_view = tuple(s for size in a_sizes for s in (size, 1))
    b_view = tuple(s for size in b_sizes for s in (1, size))
    result = tuple(x * y for x, y in zip(a_sizes, b_sizes))
    return UnsafeView.apply(UnsafeView.apply(a, a_view) * UnsafeView.apply(b, b_view), result)
