"""Matrix products. d(A @ B) = dC @ B^T for A and A^T @ dC for B."""
from __future__ import annotations

import warnings
from collections import namedtuple

import numpy as np

from ..autograd.function import Function
from ..creation import eye
from ..fidelity.products import matmul_like_torch
from ..tensor import Tensor, tensor_of
from .shape import SqueezeDimInPlace, UnsafeView


def _check_same_dtype(a: Tensor, b: Tensor) -> None:
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{a.dtype.cpp_name} != {b.dtype.cpp_name}")


def _column_major(data: np.ndarray) -> bool:
    """PyTorch's test in mm's backward (strides [1, rows]): such an operand, a transposed
    matrix's, gets its gradient as the transpose of a product, column-major as it was."""
    return data.strides[0] == data.itemsize and data.strides[1] == data.itemsize * data.shape[0]


class Mm(Function):
    """matrix @ matrix"""
    node_name = "MmBackward0"
    saved_names = ("mat2", "self")  # PyTorch's order (saved-tensor hooks see it)

    @staticmethod
    def forward(ctx, a, b):
        if a._data.ndim != 2:
            raise RuntimeError("self must be a matrix")
        if b._data.ndim != 2:
            raise RuntimeError("mat2 must be a matrix")
        if a._data.shape[1] != b._data.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                f"{b.shape[0]}x{b.shape[1]})")
        _check_same_dtype(a, b)
        a_needs_grad, b_needs_grad = ctx.needs_input_grad  # each keeps the other for backward
        ctx.save_for_backward(b if a_needs_grad else None, a if b_needs_grad else None)
        ctx.columns = (_column_major(a._data), _column_major(b._data))
        return tensor_of(matmul_like_torch(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        a_columns, b_columns = ctx.columns
        grad_a = grad_b = None
        if ctx.needs_input_grad[0]:
            grad_a = b.mm(grad.t()).t() if a_columns else grad.mm(b.t())
        if ctx.needs_input_grad[1]:
            grad_b = grad.t().mm(a).t() if b_columns else a.t().mm(grad)
        return grad_a, grad_b

    @staticmethod
    def _backward_on_arrays(ctx, grad):  # the same on arrays: BackwardFunction.apply_to_arrays
        b, a = ctx.saved_arrays
        a_columns, b_columns = ctx.columns
        grad_a = grad_b = None
        if ctx.needs_input_grad[0]:
            grad_a = matmul_like_torch(b, grad.T).T if a_columns else matmul_like_torch(grad, b.T)
        if ctx.needs_input_grad[1]:
            grad_b = matmul_like_torch(grad.T, a).T if b_columns else matmul_like_torch(a.T, grad)
        return grad_a, grad_b


class Mv(Function):
    """matrix @ vector"""
    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, a, v):
        if a._data.ndim != 2 or v._data.ndim != 1:  # PyTorch's mv is addmv(input, mat, vec)
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
        if a._data.shape[1] != v._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat "
                               f"({a.shape[0]}x{a.shape[1]}), vec ({v.shape[0]})")
        if a.dtype is not v.dtype:  # input is the result, made with vec's dtype
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                               f"{v.dtype.scalar_name}, {a.dtype.scalar_name}, and "
                               f"{v.dtype.scalar_name}")
        ctx.save_for_backward(a if v.requires_grad else None, v if a.requires_grad else None)
        return tensor_of(matmul_like_torch(a._data, v._data))

    @staticmethod
    def backward(ctx, grad):
        a, v = ctx.saved_tensors
        # grad.outer(vec), as PyTorch's: grad.reshape(-1, 1) * vec
        return (grad.reshape(-1, 1) * v if ctx.needs_input_grad[0] else None,
                a.t().mv(grad) if ctx.needs_input_grad[1] else None)


class Dot(Function):
    """vector . vector"""
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a.dtype is not b.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                               f"{a.dtype.scalar_name} and {b.dtype.scalar_name}")
        if a.shape != b.shape:
            raise RuntimeError(
                "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same "
                "number of elements, but got %d and %d elements respectively"
                % (a.shape[0], b.shape[0], a.shape[0], b.shape[0]))
        ctx.save_for_backward(a if b.requires_grad else None, b if a.requires_grad else None)
        return tensor_of(np.asarray(matmul_like_torch(a._data, b._data)))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None,
                grad * a if ctx.needs_input_grad[1] else None)


class BatchedMatmul(Function):
    """batched @ with broadcasting over leading dimensions"""
    node_name = "BmmBackward0"
    saved_names = ("mat2", "self")  # PyTorch's order (saved-tensor hooks see it)

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return tensor_of(matmul_like_torch(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (grad @ b.transpose(-1, -2) if ctx.needs_input_grad[0] else None,
                a.transpose(-1, -2) @ grad if ctx.needs_input_grad[1] else None)


def matmul(a: Tensor, b: Tensor) -> Tensor:
    if a._data.ndim == 2 and b._data.ndim == 2:  # the commonest case first
        _check_same_dtype(a, b)
        return Mm.apply(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError("both arguments to matmul need to be at least 1D, but they are "
                           f"{a.ndim}D and {b.ndim}D")
    if a.ndim == 1 and b.ndim == 1:  # Dot checks the dtypes itself, with its own words
        return Dot.apply(a, b)
    if a.ndim == 2 and b.ndim == 1:  # Mv too, with its own words
        return Mv.apply(a, b)
    _check_same_dtype(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return SqueezeDimInPlace.apply(Mm.apply(a.unsqueeze(0), b), (0,))  # as PyTorch: not a view
    if b.ndim == 2:  # fold the batch into rows: one matrix product, as PyTorch does
        out = Mm.apply(a.reshape(-1, a.shape[-1]), b)
        return UnsafeView.apply(out, tuple(a.shape[:-1]) + (b.shape[1],))
    if b.ndim == 1:  # a batch of matrices times a vector: one matrix-vector product
        rows = int(np.prod(a.shape[:-1]))
        out = Mv.apply(a.reshape(rows, a.shape[-1]), b)
        return UnsafeView.apply(out, tuple(a.shape[:-1]))
    if a.ndim == 1:  # a vector times a batch: the same, with the batch transposed
        bt = b.transpose(-1, -2)
        rows = int(np.prod(bt.shape[:-1]))
        out = Mv.apply(bt.reshape(rows, bt.shape[-1]), a)
        return UnsafeView.apply(out, tuple(b.shape[:-2]) + (b.shape[-1],))
    out = BatchedMatmul.apply(a, b)
    return UnsafeView.apply(out, tuple(out.shape))


class Bmm(Function):
    """a batch of matrix products: (b, n, m) @ (b, m, p)"""
    node_name = "BmmBackward0"
    saved_names = ("mat2", "self")  # PyTorch's order (saved-tensor hooks see it)

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 3 or b.ndim != 3:
            raise RuntimeError(f"batch{1 if a.ndim != 3 else 2} must be a 3D tensor")
        if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, "
                               f"{b.shape[1]}].")
        ctx.save_for_backward(b, a)
        return tensor_of(matmul_like_torch(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return grad.bmm(b.transpose(1, 2)), a.transpose(1, 2).bmm(grad)


class Einsum(Function):
    """einsum(equation, *operands): numpy's einsum forward; each operand's gradient is the
    einsum of the output gradient with the other operands, back to the operand's subscripts
    (broadcast along letters summed away in the operand alone)"""
    node_name = "EinsumBackward"

    @staticmethod
    def forward(ctx, inputs, output, *operands):
        ctx.inputs, ctx.output = inputs, output
        ctx.save_for_backward(*operands)
        equation = f"{','.join(inputs)}->{output}"
        return tensor_of(np.asarray(np.einsum(equation, *(t._data for t in operands))))

    @staticmethod
    def backward(ctx, grad):
        operands = ctx.saved_tensors
        grads = []
        for k, (subs, t) in enumerate(zip(ctx.inputs, operands)):
            if not ctx.needs_input_grad[k + 2]:
                grads.append(None)
                continue
            others = [(s, o) for j, (s, o) in enumerate(zip(ctx.inputs, operands)) if j != k]
            known = set(ctx.output).union(*(set(s) for s, _ in others))
            kept = "".join(c for c in subs if c in known)
            g = Einsum.apply((ctx.output, *(s for s, _ in others)), kept, grad,
                             *(o for _, o in others))
            if kept != subs:  # letters only this operand had: the gradient is the same along them
                g = g.reshape([t.shape[i] if c in known else 1 for i, c in enumerate(subs)])
                g = g.expand(t.shape)
            grads.append(g)
        return (None, None, *grads)


def einsum(equation: str, *operands: Tensor) -> Tensor:
    """`torch.einsum("ij,jk->ik", a, b)` (or with the operands as one list). Equations with
    `...` or a letter repeated within one operand are left out."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    inputs, _, output = equation.partition("->")
    subscripts = tuple(inputs.split(","))
    if "..." in equation or any(len(set(s)) != len(s) for s in subscripts):
        raise NotImplementedError("minigrad is a subset of PyTorch: einsum takes neither '...' "
                                  "nor a letter repeated within one operand")
    if len(subscripts) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(subscripts) else
                           "einsum(): fewer operands were provided than specified in the "
                           "equation")
    if not _:  # no "->": the letters that appear once, in alphabetical order (numpy's rule)
        letters = "".join(subscripts)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return Einsum.apply(subscripts, output, *operands)


def matrix_power(A: Tensor, n: int) -> Tensor:  # noqa: N803
    """A @ A @ ... (n times), with PyTorch's products in PyTorch's order (so its roundings and
    grad_fn): A @ A, then (A @ A) @ A, and from n = 4 on, by the binary digits of n."""
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {A.shape[-2]} by {A.shape[-1]} matrices")
    if n < 0:
        raise RuntimeError("minigrad is a subset of PyTorch: it has no linalg.inv, so no "
                           "matrix_power with a negative exponent")
    if n == 0:  # the identity, written over a copy of A, as PyTorch's (grad_fn CopyBackwards)
        return A.clone().copy_(eye(A.shape[-1], dtype=A.dtype).expand_as(A))
    if n == 1:
        return A.clone()
    if n == 2:
        return A.matmul(A)
    if n == 3:
        return A.matmul(A).matmul(A)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else z.matmul(z)
        if bit:
            result = z if result is None else result.matmul(z)
    return result


class LinalgCross(Function):
    """cross(a, b) along dim: a gets cross(b, grad) and b gets cross(grad, a)"""
    node_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx, a, b, dim):
        ctx.dim = dim
        a_needs_grad, b_needs_grad = ctx.needs_input_grad[:2]
        ctx.save_for_backward(b if a_needs_grad else None, a if b_needs_grad else None)
        return tensor_of(np.cross(a._data, b._data, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (LinalgCross.apply(b, grad, ctx.dim) if ctx.needs_input_grad[0] else None,
                LinalgCross.apply(grad, a, ctx.dim) if ctx.needs_input_grad[1] else None, None)


_CROSS_WITHOUT_DIM = {"warned": False}


def cross(a: Tensor, b: Tensor, dim: int | None = None, *, linalg: bool = False) -> Tensor:
    """torch.cross (dim: the first of a's dimensions of size 3, with PyTorch's warning, once a
    process as PyTorch gives it) and torch.linalg.cross (dim=-1)."""
    if dim is None and not linalg:
        if not _CROSS_WITHOUT_DIM["warned"]:
            _CROSS_WITHOUT_DIM["warned"] = True
            warnings.warn(
                "Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
                "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of "
                "dim will change to agree with that of linalg.cross in a future release.",
                UserWarning, stacklevel=3)
        sizes = [i for i, n in enumerate(a.shape) if n == 3]
        if not sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes[0]
    dim = -1 if dim is None else dim
    if a.ndim != b.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if a.shape[dim] != 3 or b.shape[dim] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{a.shape[dim]} and {b.shape[dim]}")
    return LinalgCross.apply(a, b, dim)


class SvdResult(namedtuple("SvdResult", ["U", "S", "V"])):
    """What torch.svd returns, printed as PyTorch's torch.return_types.svd."""
    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.return_types.svd(\nU={self.U!r},\nS={self.S!r},\nV={self.V!r})"


SvdResult.__name__ = SvdResult.__qualname__ = "svd"
SvdResult.__module__ = "torch.return_types"


def svd(a: Tensor, some: bool = True, compute_uv: bool = True) -> SvdResult:
    """torch.svd: A = U diag(S) V^T, from LAPACK through numpy (the signs of U's and V's
    columns are LAPACK's, which may differ from PyTorch's). Its gradient is PyTorch-only."""
    if not a.dtype.is_floating_point:
        raise RuntimeError(f"linalg.svd: Expected a floating point or complex tensor as input. "
                           f"Got {a.dtype.scalar_name}")
    if a.requires_grad:
        raise NotImplementedError("minigrad is a subset of PyTorch: torch.svd of a tensor that "
                                  "requires grad (its gradient) is not implemented")
    u, s, vh = np.linalg.svd(a._data, full_matrices=not some)
    if not compute_uv:
        u, vh = np.zeros_like(u), np.zeros_like(vh)
    return SvdResult(tensor_of(u), tensor_of(s), tensor_of(np.swapaxes(vh, -1, -2).copy()))
