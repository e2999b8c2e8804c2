"""`Function`, the one way every operation is defined: a `forward(ctx, ...)` that computes,
a `backward(ctx, grad)` that applies the chain rule, and a `ctx` that remembers what backward
needs. Calling `.apply` links the result into the backward graph (see graph.py)."""
from __future__ import annotations

import weakref
from typing import Any

from .. import _grad_mode
from .graph import _NO_EDGE, ERR_BACKWARD_TWICE, Node, SavedTensor

_Tensor: Any = None  # minigrad.tensor imports this module, so Tensor is fetched on first use


class FunctionCtx:
    """What `forward` and `backward` share: saved tensors and any attribute you set."""

    _to_save: tuple | None = None  # what save_for_backward was given, until the graph links it
    _dirty: tuple = ()
    _non_differentiable: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors

    @property
    def saved_tensors(self) -> tuple:
        if self._freed:
            raise RuntimeError(ERR_BACKWARD_TWICE)
        if self._saved is None:
            return ()
        return tuple(None if s is None else s.unpack(self) for s in self._saved)

    def mark_dirty(self, *tensors: Any) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize_grads = value


class BackwardFunction(FunctionCtx, Node):
    """The node a `Function.apply` call leaves in the graph; it is also the `ctx`."""

    # Set for every recorded node (by Function.apply), so slots rather than dict entries;
    # _tensor_positions says which forward arguments were tensors.
    __slots__ = ("_num_args", "_tensor_positions", "_to_save", "needs_input_grad")
    _forward_cls: type
    _materialize_grads = True

    def __init__(self) -> None:
        super().__init__()
        self._to_save = None

    def name(self) -> str:
        return self._qualname

    def apply(self, *grad_outputs: Any) -> tuple:
        grads = self._forward_cls.backward(self, *grad_outputs)
        grads = grads if isinstance(grads, tuple) else (grads,)
        if len(grads) > self._num_args and all(g is None for g in grads[self._num_args:]):
            grads = grads[:self._num_args]  # extra Nones (for defaulted arguments) are allowed
        if len(grads) != self._num_args:  # one gradient per forward argument, None for non-tensors
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {self._num_args}, got {len(grads)})")
        return tuple(grads[i] if i < len(grads) else None for i in self._tensor_positions)


class Function:
    """Subclass it with static `forward(ctx, *args)` and `backward(ctx, *grads)`, then call
    `.apply(*args)`. Every minigrad operation is one of these, as in PyTorch."""

    node_name: str | None = None  # the grad_fn's class name; default "<ClassName>Backward"
    node_qualname: str | None = None  # what grad_fn.name() says, when it differs

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.node_name or f"{cls.__name__}Backward"
        cls._backward_cls = type(name, (BackwardFunction,), {
            "_forward_cls": cls, "_name": name, "_qualname": cls.node_qualname or name})

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: FunctionCtx, *grad_outputs: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        Tensor = _tensor_class()
        ctx = cls._backward_cls()
        ctx.needs_input_grad = _shared(tuple(isinstance(a, Tensor) and a.requires_grad
                                             for a in args))
        enabled = _grad_mode._enabled
        record = enabled and any(ctx.needs_input_grad)
        _grad_mode._set_enabled(False)  # what forward computes is not recorded op by op
        try:
            outputs = cls.forward(ctx, *args, **kwargs)
        finally:
            _grad_mode._set_enabled(enabled)
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        if record:
            _connect(ctx, args, outs)
        else:
            ctx._to_save = None
        return outputs


def _connect(ctx: BackwardFunction, args: tuple, outs: tuple) -> None:
    """Link a freshly computed result into the graph: inputs become `next_functions`, outputs
    get `grad_fn`, and what forward saved is stamped with its version."""
    Tensor = _tensor_class()
    positions, edges, meta, refs = [], [], [], []  # one pass over the inputs: ops are small
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            positions.append(i)
            edges.append(_edge(a))
            meta.append((a._data.shape, a.dtype))
            refs.append(_input_ref(a))
    ctx._num_args = len(args)
    ctx._tensor_positions = _shared(tuple(positions))
    ctx.next_functions = tuple(edges)
    ctx._input_meta = _shared(tuple(meta))
    non_diff, dirty = ctx._non_differentiable, ctx._dirty
    for i, out in enumerate(outs):
        if not isinstance(out, Tensor) or (non_diff and any(out is t for t in non_diff)):
            continue
        if out._data.dtype.kind != "f":  # only floating point results carry gradients
            continue
        if dirty and out.is_leaf and out.requires_grad and any(out is d for d in dirty):
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        out._set_history(ctx, i)
    ctx._outputs = tuple(weakref.ref(o) if isinstance(o, Tensor) else None for o in outs)
    ctx._inputs = tuple(refs)
    to_save, ctx._to_save = ctx._to_save, None
    if to_save is not None:
        ctx._saved = tuple(None if t is None else SavedTensor(t, ctx) for t in to_save)


def _tensor_class() -> type:
    global _Tensor
    if _Tensor is None:  # an import statement costs microseconds: more than many whole ops
        from ..tensor import Tensor

        _Tensor = Tensor
    return _Tensor


_SHARED: dict[tuple, tuple] = {}


def _shared(value: tuple) -> tuple:
    """One copy of an equal small tuple (flags, input shapes) for all the nodes that hold one:
    a graph may have a million nodes, most of them alike."""
    if len(_SHARED) >= 10_000:  # stays small whatever shapes a program goes through
        _SHARED.clear()
    return _SHARED.setdefault(value, value)


class _Kept:
    """A strong reference called like a weak one: `ref()` gives the tensor."""

    __slots__ = ("tensor",)

    def __init__(self, tensor: Any) -> None:
        self.tensor = tensor

    def __call__(self) -> Any:
        return self.tensor


def _input_ref(t: Any) -> Any:
    """What a node remembers of an input, for diagrams: a weak reference, except for a 0-d
    constant (often a Python number made a tensor: `x * 2`), kept so a diagram can show it."""
    if t.ndim == 0 and not t.requires_grad:
        return _Kept(t)
    return weakref.ref(t)


def _edge(t: Any) -> tuple:
    """Where the gradient for tensor `t` must be sent: its grad_fn, or its AccumulateGrad."""
    if not t.requires_grad:
        return _NO_EDGE
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    return (t._grad_accumulator(), 0)
