"""Nodes of the backward graph (PyTorch's `grad_fn` objects) and `Function`, the one way
every operation is defined: a `forward(ctx, ...)` that computes, a `backward(ctx, grad)` that
applies the chain rule, and a `ctx` that remembers what backward needs."""
from __future__ import annotations

import itertools
import re
import weakref
from types import MappingProxyType
from typing import Any

from .. import _grad_mode

_sequence = itertools.count()  # creation order; the engine runs later nodes first, as PyTorch does
_Tensor: Any = None  # minigrad.tensor imports this module, so Tensor is fetched on first use

ERR_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


class RemovableHandle:
    """What `register_hook` returns: `remove()` takes the hook out again."""

    _next_id = itertools.count()

    def __init__(self, hooks: dict) -> None:
        self.hooks = hooks  # a plain dict cannot be weakly referenced; it holds only the hooks
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        self.hooks.pop(self.id, None)

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.remove()


class SavedTensor:
    """A tensor kept for backward, with the version it had then: if it is changed in place
    afterwards, its old values are gone and unpacking raises PyTorch's error."""

    __slots__ = ("tensor", "version", "counter", "output_of", "is_own_output")

    def __init__(self, tensor: Any, owner: "Node") -> None:
        self.counter = tensor._version_counter
        self.version = self.counter.value
        fn = tensor.grad_fn
        self.output_of = None if fn is None else (tensor._output_nr, fn.name())
        # A node that saves its own output keeps an alias without history: holding the output
        # itself would make a reference cycle (output -> grad_fn -> output).
        self.is_own_output = fn is owner
        self.tensor = tensor._alias() if self.is_own_output else tensor

    def unpack(self, owner: "Node") -> Any:
        if self.counter.value != self.version:
            t = self.tensor
            what = f"[{t.type()} [{', '.join(str(s) for s in t.shape)}]]"
            if self.output_of is not None:
                # PyTorch names the op that made the tensor as it is now (an in-place op makes
                # it that op's output), by its forward name: "Exp" for ExpBackward0.
                fn, nr = (owner, self.output_of[0]) if self.is_own_output else (t.grad_fn,
                                                                                t._output_nr)
                what += f", which is output {nr} of {_forward_name(fn.name())},"
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: {what} is at version {self.counter.value}; expected version "
                f"{self.version} instead. Hint: enable anomaly detection to find the operation "
                "that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."
            )
        if self.is_own_output:  # reattach, so that a graph of the backward pass can be built
            out = self.tensor._alias()
            out._set_history(owner, self.output_of[0])
            return out
        return self.tensor


def _forward_name(node_name: str) -> str:
    """The operation a backward node belongs to: "ExpBackward0" -> "Exp"."""
    return re.sub(r"Backward\d*$", "", node_name)


_NO_HOOKS: Any = MappingProxyType({})  # shared, read-only, until a node gets a hook of its own
_NO_EDGE = (None, 0)  # next_functions' entry for an input that does not require grad


class Node:
    """A step of the backward pass. `next_functions` points at the nodes that produced this
    node's inputs; leaves that require grad end in an `AccumulateGrad`."""

    # A graph may hold a million nodes: what every node has lives in slots, and what few nodes
    # have (hooks, retained outputs, metadata) is a class default until it is set.
    __slots__ = ("__dict__", "__weakref__", "_freed", "_input_meta", "_inputs", "_outputs",
                 "_saved", "_sequence_nr", "next_functions")
    _name = "Node"
    _tensor_hooks: dict[int, dict] | None = None  # output_nr -> {id: hook}
    _retained: dict[int, weakref.ref] | None = None  # output_nr -> tensor to keep .grad on
    _pre_hooks: dict = _NO_HOOKS
    _post_hooks: dict = _NO_HOOKS
    _metadata: dict | None = None

    def __init__(self) -> None:
        self.next_functions: tuple = ()
        self._sequence_nr = next(_sequence)
        self._saved: tuple[SavedTensor | None, ...] | None = None
        self._freed = False
        self._input_meta: tuple = ()  # (shape, dtype) per input, to check returned gradients
        self._outputs: tuple = ()  # weak references to output tensors, for diagrams
        self._inputs: tuple = ()  # callables giving the input tensors (or None), for diagrams

    @property
    def metadata(self) -> dict:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"<{self.name()} object>"

    def register_hook(self, hook: Any) -> RemovableHandle:
        """`hook(grad_inputs, grad_outputs)` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is _NO_HOOKS:
            self._post_hooks = {}
        handle = RemovableHandle(self._post_hooks)
        self._post_hooks[handle.id] = hook
        return handle

    def register_prehook(self, hook: Any) -> RemovableHandle:
        """`hook(grad_outputs)` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is _NO_HOOKS:
            self._pre_hooks = {}
        handle = RemovableHandle(self._pre_hooks)
        self._pre_hooks[handle.id] = hook
        return handle

    def _add_tensor_hook(self, output_nr: int, hook: Any) -> RemovableHandle:
        if self._tensor_hooks is None:
            self._tensor_hooks = {}
        hooks = self._tensor_hooks.setdefault(output_nr, {})
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def _release(self) -> None:
        """Free saved tensors once backward is done with them (unless retain_graph)."""
        if self._saved is not None:
            self._saved = None
            self._freed = True

    def apply(self, *grad_outputs: Any) -> tuple:  # pragma: no cover - overridden
        raise NotImplementedError

    def __call__(self, *grad_outputs: Any) -> Any:
        grads = self.apply(*grad_outputs)
        return grads[0] if len(grads) == 1 else grads


class AccumulateGrad(Node):
    """The end of every path to a leaf that requires grad: adds the gradient into `.grad`."""

    _name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable: Any) -> None:
        super().__init__()
        self.variable = variable
        self._sequence_nr = float("inf")  # PyTorch runs these as soon as they are ready

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    @property
    def _tensor_hooks(self) -> dict | None:  # a leaf's hooks live on the leaf itself
        hooks = self.variable._hooks
        return {0: hooks} if hooks else None

    @_tensor_hooks.setter
    def _tensor_hooks(self, value: Any) -> None:
        pass

    def __repr__(self) -> str:
        return "<AccumulateGrad object>"

    def apply(self, *grad_outputs: Any) -> tuple:
        return ()


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
