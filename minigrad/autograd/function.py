"""`Function`, the one way every operation is defined: a `forward(ctx, ...)` that computes,
a `backward(ctx, grad)` that applies the chain rule, and a `ctx` that remembers what backward
needs. Calling `.apply` links the result into the backward graph (see graph.py)."""
from __future__ import annotations

import functools
import weakref
from typing import Any

from .. import _grad_mode
from .graph import _NO_EDGE, ERR_BACKWARD_TWICE, Node, SavedTensor, _sequence

_Tensor: Any = None  # minigrad.tensor imports this module, so Tensor is fetched on first use
_new = object.__new__  # a node is made without __init__: apply sets every field itself

try:  # numpy >= 2 keeps its error state in a context variable: setting it costs 0.1 µs
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

    _quiet = functools.partial(_extobj_contextvar.set, _make_extobj(all="ignore"))
    _loud = _extobj_contextvar.reset
except ImportError:  # pragma: no cover - another numpy: the public way, 1 µs
    import numpy as np

    def _quiet() -> Any:
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def _loud(token: Any) -> None:
        token.__exit__(None, None, None)


class FunctionCtx:
    """What `forward` and `backward` share: saved tensors and any attribute you set."""

    _to_save: tuple | None = None  # what save_for_backward was given, until the graph links it
    _dirty: tuple = ()
    _non_differentiable: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors

    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved
        if saved is None:
            if self._freed:
                raise RuntimeError(ERR_BACKWARD_TWICE)
            return ()
        return tuple([None if s is None else s.unpack(self) for s in saved])

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

    def name(self) -> str:
        return self._qualname

    def apply(self, *grad_outputs: Any) -> tuple:
        grads = self._forward_cls.backward(self, *grad_outputs)
        grads = grads if isinstance(grads, tuple) else (grads,)
        positions = self._tensor_positions
        if len(grads) == len(positions) == self._num_args:  # every argument was a tensor
            return grads
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
        # This runs for every operation, so it is written for speed: one pass over the
        # arguments, no helper calls that are not needed.
        Tensor = _Tensor or _tensor_class()
        ctx = _new(cls._backward_cls)
        ctx._to_save = None
        flags = tuple([isinstance(a, Tensor) and (a._requires_grad or a.grad_fn is not None)
                       for a in args])
        ctx.needs_input_grad = _SHARED.setdefault(flags, flags)  # (_shared bounds the size)
        enabled = _grad_mode._enabled
        _grad_mode._enabled = False  # what forward computes is not recorded op by op
        quiet = _quiet()  # numpy's overflow and 0 * inf warnings: PyTorch has none
        try:
            outputs = cls.forward(ctx, *args, **kwargs)
        finally:
            _grad_mode._enabled = enabled
            _loud(quiet)
        if enabled and True in flags:
            _connect(ctx, args, outputs if isinstance(outputs, tuple) else (outputs,))
        return outputs


def _connect(ctx: BackwardFunction, args: tuple, outs: tuple) -> None:
    """Link a freshly computed result into the graph: inputs become `next_functions`, outputs
    get `grad_fn`, and what forward saved is stamped with its version.

    This runs once per recorded operation, so it makes one pass over the arguments and shares
    what many nodes hold alike (flags, shapes, Python numbers) instead of copying it."""
    Tensor = _Tensor
    edges, meta, kept = [], [], []
    all_tensors, keep, only_numbers = True, False, True
    for a in args:
        if not isinstance(a, Tensor):
            all_tensors = False
            continue
        meta.append((a._data.shape, a._data.dtype))
        fn = a.grad_fn
        if fn is not None:
            edges += (fn, a._output_nr)
            kept.append(None)  # diagrams find it as an output of `fn`
        elif a._requires_grad:
            edges += (a._grad_accumulator(), 0)
            kept.append(None)  # diagrams find it on its AccumulateGrad
        else:
            edges += _NO_EDGE
            kept.append(_input_ref(a))
            keep, only_numbers = True, only_numbers and a._is_wrapped_number
    ctx._sequence_nr = next(_sequence)
    ctx._num_args = len(args)
    ctx._tensor_positions = _ALL_POSITIONS[len(args)] if all_tensors and len(args) < 8 else (
        _shared(tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))))
    ctx._edges = tuple(edges)  # flat: see Node.next_functions
    ctx._input_meta = _shared(tuple(meta))
    if keep:  # a tuple of Python numbers (and Nones) is shared: `y * 0.5` a million times over
        ctx._inputs = _shared(tuple(kept)) if only_numbers else tuple(kept)
    else:
        ctx._inputs = ()
    ctx._freed = False
    non_diff, dirty = ctx._non_differentiable, ctx._dirty
    if len(outs) == 1 and not non_diff and not dirty and isinstance(outs[0], Tensor):
        out = outs[0]  # the common case: one new tensor
        ctx._outputs = weakref.ref(out)  # not a tuple of one: see graph.output_ref
        if out._data.dtype.kind == "f":
            out.grad_fn, out._output_nr = ctx, 0
    else:
        ctx._outputs = _link_outputs(ctx, outs, non_diff, dirty)
    to_save, ctx._to_save = ctx._to_save, None
    ctx._saved = None if to_save is None else _save(to_save, ctx)


def _save(tensors: tuple, ctx: BackwardFunction) -> tuple:
    """A SavedTensor for each tensor saved. A Python number never changes, so it has one
    SavedTensor for all the nodes that save it, and a tuple of those (and Nones) is shared."""
    saved, only_numbers = [], True
    for t in tensors:
        if t is None:
            saved.append(None)
        elif t._is_wrapped_number:
            saved.append(t._saved_once or _saved_once(t, ctx))
        else:
            saved.append(SavedTensor(t, ctx))
            only_numbers = False
    return _shared(tuple(saved)) if only_numbers else tuple(saved)


def _saved_once(number: Any, ctx: BackwardFunction) -> SavedTensor:
    number._saved_once = SavedTensor(number, ctx)
    return number._saved_once


def _link_outputs(ctx: BackwardFunction, outs: tuple, non_diff: tuple, dirty: tuple) -> tuple:
    """Give each output that carries gradients its `grad_fn`; weak references to them all."""
    refs = []
    for i, out in enumerate(outs):
        if not isinstance(out, _Tensor):
            refs.append(None)
            continue
        refs.append(weakref.ref(out))
        if non_diff and any(out is t for t in non_diff):
            continue
        if out._data.dtype.kind != "f":  # only floating point results carry gradients
            continue
        if dirty and out.grad_fn is None and out._requires_grad and any(out is d for d in dirty):
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        out.grad_fn, out._output_nr = ctx, i
    return tuple(refs)


def _tensor_class() -> type:
    global _Tensor
    if _Tensor is None:  # an import statement costs microseconds: more than many whole ops
        from ..tensor import Tensor

        _Tensor = Tensor
    return _Tensor


_SHARED: dict[tuple, tuple] = {}
_ALL_POSITIONS = tuple(tuple(range(n)) for n in range(8))  # every argument a tensor: the usual


def _shared(value: tuple) -> tuple:
    """One copy of an equal small tuple (flags, input shapes) for all the nodes that hold one:
    a graph may have a million nodes, most of them alike."""
    if len(_SHARED) >= 10_000:  # stays small whatever shapes a program goes through
        _SHARED.clear()
    return _SHARED.setdefault(value, value)


def _input_ref(t: Any) -> Any:
    """What a node remembers of an input that does not require grad, for diagrams: a weak
    reference, except for a 0-d constant (often a Python number made a tensor: `x * 2`), kept
    itself so that a diagram can show it. `graph.input_tensor` reads either."""
    return t if t._data.ndim == 0 else weakref.ref(t)
