"""Element-wise operations. Each backward is written with tensor operations, so that with
`create_graph=True` the backward pass is itself recorded (second derivatives). Gradients may
come out broadcast; the engine sums them back to each input's shape."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import result_type
from ..autograd.function import Function
from ..tensor import Tensor, _wrap


def as_tensor_pair(a: Any, b: Any) -> tuple[Tensor, Tensor]:
    """Both operands as tensors of the promoted dtype; a Python number becomes a constant."""
    if isinstance(a, Tensor) and a._data.dtype.kind == "f":  # the common cases, decided quickly
        if isinstance(b, Tensor) and b._data.dtype == a._data.dtype:
            if a._data.shape != b._data.shape:
                check_broadcast(a._data.shape, b._data.shape)
            return a, b
        if type(b) in (float, int, bool):  # a number never promotes a float tensor
            return a, wrapped_number(b, a._data.dtype)
    dt = result_type(a, b).numpy
    a = a if isinstance(a, Tensor) and a._data.dtype == dt else _constant(a, dt)
    b = b if isinstance(b, Tensor) and b._data.dtype == dt else _constant(b, dt)
    if a._data.shape != b._data.shape:
        check_broadcast(a.shape, b.shape)
    return a, b


def check_broadcast(a: tuple, b: tuple) -> None:
    """PyTorch's error for shapes that do not broadcast, naming the first clash from the right."""
    if len(a) >= len(b) and a[len(a) - len(b):] == b:  # the common case: `x @ w + bias`
        return
    ndim = max(len(a), len(b))
    for i in range(1, ndim + 1):
        sa = a[-i] if i <= len(a) else 1
        sb = b[-i] if i <= len(b) else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b "
                               f"({sb}) at non-singleton dimension {ndim - i}")


def _constant(x: Any, dt: np.dtype) -> Tensor:
    if isinstance(x, Tensor):  # a promoted copy keeps its history
        return x.to(_from_np(dt)) if x.requires_grad else Tensor(x._data.astype(dt))
    if isinstance(x, (np.ndarray, list, tuple)):
        raise TypeError(f"unsupported operand type: {type(x).__name__}")
    return wrapped_number(x, dt)


_WRAPPED: dict[tuple, Tensor] = {}


def wrapped_number(x: Any, dt: np.dtype) -> Tensor:
    """A Python number as a 0-d tensor (PyTorch calls it a wrapped number). `y * 0.5` in a loop
    makes the same one each time, so one read-only tensor per value is shared by all the nodes
    that use it: a million-op chain then holds one constant, not a million."""
    key = (type(x), x, dt)
    t = _WRAPPED.get(key)
    if t is None:
        t = Tensor(np.asarray(x, dtype=dt))
        if x != x or (x == 0 and type(x) is float):
            return t  # nan is no key (nan != nan), and -0.0 == 0.0: not shared
        t._data.flags.writeable = False
        t._is_wrapped_number = True
        if len(_WRAPPED) >= 1024:  # stays small whatever numbers a program uses
            _WRAPPED.clear()
        _WRAPPED[key] = t
    return t


def _from_np(dt: np.dtype) -> Any:
    from .._dtype import from_numpy

    return from_numpy(dt)


def _out(x: Any, like: Tensor) -> Tensor:
    """The result of a numpy computation as a tensor of `like`'s dtype (numpy gives a scalar,
    not a 0-d array, for 0-d inputs)."""
    dt = like._data.dtype
    return _wrap(x if type(x) is np.ndarray and x.dtype == dt else np.asarray(x, dtype=dt))


class Add(Function):
    """d(a+b) = da + db"""
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        if alpha != 1:  # (set only when needed: a node's first attribute costs a dict)
            ctx.alpha = alpha
        return _out(a._data + b._data if alpha == 1 else a._data + alpha * b._data, a)

    @staticmethod
    def backward(ctx, grad):
        alpha = getattr(ctx, "alpha", 1)
        return grad, (grad if alpha == 1 else grad * alpha), None


class Sub(Function):
    """d(a-b) = da - db"""
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        if alpha != 1:  # (set only when needed: a node's first attribute costs a dict)
            ctx.alpha = alpha
        return _out(a._data - b._data if alpha == 1 else a._data - alpha * b._data, a)

    @staticmethod
    def backward(ctx, grad):
        alpha = getattr(ctx, "alpha", 1)
        return grad, (-grad if alpha == 1 else grad * -alpha), None


class Rsub(Function):
    """other - a, for a Python number other: d = -da"""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, other):
        return _out(other - a._data, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Function):
    """d(a*b) = b da + a db"""
    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if b.requires_grad else None, b if a.requires_grad else None)
        return _out(a._data * b._data, a)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None,
                grad * a if ctx.needs_input_grad[1] else None)


class Div(Function):
    """d(a/b) = da / b - a db / b^2"""
    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if b.requires_grad else None, b)
        return _out(a._data / b._data, a)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad / b if ctx.needs_input_grad[0] else None,
                -grad * a / (b * b) if ctx.needs_input_grad[1] else None)


class Reciprocal(Function):
    """d(1/a) = -da / a^2"""
    node_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, a):
        out = _out(1 / a._data, a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -grad * out * out


class Pow(Function):
    """d(a^k) = k a^(k-1) da, for a number k"""
    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, a, exponent):
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        return _out(a._data ** exponent, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        k = ctx.exponent
        if k == 0:
            return _zeros_like(grad), None
        return grad * k * a ** (k - 1), None


class PowTensor(Function):
    """d(a^b) = b a^(b-1) da + a^b ln(a) db"""
    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, a, b):
        out = _out(a._data ** b._data, a)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        grad_a = None
        if ctx.needs_input_grad[0]:  # where b == 0 the result is constant: 0, not 0 * a^-1
            grad_a = where(Tensor(b._data == 0), 0.0, grad * b * a ** (b - 1))
        grad_b = None
        if ctx.needs_input_grad[1]:  # where a == 0 and b >= 0, PyTorch defines this as 0
            grad_b = grad * out * _masked_log(a, b)
        return grad_a, grad_b


def _masked_log(a: Tensor, b: Tensor) -> Tensor:
    return where(Tensor((a._data == 0) & (b._data >= 0)), 1.0, a).log()  # log 1 = 0 there


class RPow(Function):
    """d(k^a) = k^a ln(k) da, for a number k"""
    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx, a, base):
        out = _out(np.asarray(base, dtype=a._data.dtype) ** a._data, a)
        ctx.save_for_backward(out)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out * float(np.log(ctx.base)), None


class Neg(Function):
    """d(-a) = -da"""
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        return _out(-a._data, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad


def _unary(name: str, compute, derivative, saves: str = "input", doc: str = "") -> type:
    """An element-wise Function from its value and its derivative (in terms of the saved
    input `x` or output `y`)."""

    def forward(ctx, a):
        out = _out(compute(a._data), a)
        ctx.save_for_backward(a if saves == "input" else out)
        return out

    def backward(ctx, grad):
        (saved,) = ctx.saved_tensors
        return grad * derivative(saved)

    return type(name, (Function,), {"node_name": f"{name}Backward0", "__doc__": doc,
                                    "forward": staticmethod(forward),
                                    "backward": staticmethod(backward)})


Exp = _unary("Exp", np.exp, lambda y: y, saves="output", doc="d exp(a) = exp(a) da")
Log = _unary("Log", np.log, lambda x: 1 / x, doc="d log(a) = da / a")
Sqrt = _unary("Sqrt", np.sqrt, lambda y: 0.5 / y, saves="output", doc="d sqrt(a) = da / 2sqrt(a)")
Sin = _unary("Sin", np.sin, lambda x: x.cos(), doc="d sin(a) = cos(a) da")
Cos = _unary("Cos", np.cos, lambda x: -x.sin(), doc="d cos(a) = -sin(a) da")
Tanh = _unary("Tanh", np.tanh, lambda y: 1 - y * y, saves="output", doc="d tanh(a) = (1-tanh^2) da")
Sigmoid = _unary("Sigmoid", lambda a: 1 / (1 + np.exp(-a)), lambda y: y * (1 - y), saves="output",
                 doc="d s(a) = s(a)(1 - s(a)) da")
Abs = _unary("Abs", np.abs, lambda x: x.sign(), doc="d |a| = sign(a) da")
# sign(relu(a)) is [a > 0] and, like PyTorch's mask, stays in the graph when create_graph=True
class Relu(Function):
    """d relu(a) = [a > 0] da"""
    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, a):
        out = _out(np.maximum(a._data, 0), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, out)


class ThresholdBackward(Function):
    """relu's backward as an op of its own, as in PyTorch: grad where relu(a) > 0, else 0 (not
    grad * 0, which is -0 for a negative grad). Its result depends on relu's output, so under
    create_graph it stays in the graph; d/d(output) is 0."""
    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.keep = Tensor(out._data > 0)
        return _out(_keep_where(ctx.keep._data, grad._data), grad)

    @staticmethod
    def backward(ctx, grad_grad):
        return where(ctx.keep, grad_grad, 0.0), _zeros_like(grad_grad)


_SAME_SIZE_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _keep_where(keep: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`np.where(keep, values, 0)`, bit for bit (+0 where not kept, -0 kept where it is), done
    as a bitwise and with an all-ones or all-zeros mask: np.where branches on every element and
    is 5x slower on a mask without pattern, such as relu's."""
    uint = _SAME_SIZE_UINT.get(values.dtype.itemsize)
    if uint is None or values.dtype.kind != "f" or keep.shape != values.shape or not keep.ndim:
        return np.where(keep, values, 0)
    mask = np.negative(keep.view(np.uint8), dtype=uint)
    return np.bitwise_and(values.view(uint), mask, out=mask).view(values.dtype)


class Clamp(Function):
    """d clamp(a) = da where min <= a <= max, else 0"""
    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, a, min=None, max=None):  # noqa: A002 - PyTorch's names
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(a)
        ctx.bounds = (min, max)
        return _out(np.clip(a._data, min, max), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        low, high = ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside &= a._data >= low
        if high is not None:
            inside &= a._data <= high
        return where(Tensor(inside), grad, 0.0), None, None


class Where(Function):
    """where(c, a, b): the gradient goes to a where c holds, to b elsewhere"""
    node_name = "WhereBackward0"

    @staticmethod
    def forward(ctx, condition, a, b):
        ctx.condition = condition
        return _out(np.where(condition._data, a._data, b._data), a)

    @staticmethod
    def backward(ctx, grad):
        return None, where(ctx.condition, grad, 0.0), where(ctx.condition, 0.0, grad)


def where(condition: Tensor, a: Any, b: Any) -> Tensor:
    a, b = as_tensor_pair(a, b)
    return Where.apply(condition, a, b)


def _zeros_like(grad: Tensor) -> Tensor:  # a gradient that is zero wherever it is defined
    return _out(np.zeros(grad.shape), grad)


class Sign(Function):
    """d sign(a) = 0 (wherever it is defined)"""
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, a):
        return _out(np.sign(a._data), a)

    @staticmethod
    def backward(ctx, grad):
        return _zeros_like(grad)


def sign(a: Tensor) -> Tensor:
    return Sign.apply(a)
