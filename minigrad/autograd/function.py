"""`Function`, the one way every operation is defined: a `forward(ctx, ...)` that computes,
a `backward(ctx, grad)` that applies the chain rule, and a `ctx` that remembers what backward
needs. Calling `.apply` links the result into the backward graph (see graph.py)."""
from __future__ import annotations

import inspect
import itertools
import warnings
import weakref
from typing import Any

import numpy as np

from .. import _grad_mode
from ..tensor import Tensor, tensor_of
from . import anomaly, saved_hooks
from .accumulate import grad_accumulator
from .custom_view import make_custom_view
from .multi_output_view import make_multi_output_view
from .no_grad_view import check_no_grad_view_unchanged, make_no_grad_view
from .graph import (_NO_EDGE, ABSENT_INPUT, ERR_BACKWARD_TWICE, Node, SavedOutput, SavedTensor,
                    pack_outputs, seen)
# numpy quiet in every forward (numpy_quiet.py); _run_quietly is imported from here elsewhere
from .numpy_quiet import _QUIET, _numpy_errors, _run_quietly  # noqa: F401
from .saved import saved_properties
from .saved_hooks import HookedSavedTensor


class FunctionCtx:
    """What `forward` and `backward` share: saved tensors and any attribute you set."""

    _to_save: tuple | None = None  # what save_for_backward was given, until the graph links it
    _dirty: tuple = ()
    _non_differentiable: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep these tensors for backward, which reads them back as `ctx.saved_tensors`."""
        self._to_save = tensors

    @property
    def saved_tensors(self) -> tuple:
        """What forward saved; an error if it was changed in place or already freed."""
        saved = self._saved
        if saved is None:
            if self._freed:
                raise RuntimeError(ERR_BACKWARD_TWICE)
            return ()
        return tuple([None if s is None else s.unpack(self) for s in saved])

    @property
    def saved_arrays(self) -> tuple:
        """`saved_tensors`' numpy arrays, for the formulas on arrays (`_backward_on_arrays`):
        the same checks and errors, without a tensor made for each."""
        saved = self._saved
        if saved is None:
            if self._freed:
                raise RuntimeError(ERR_BACKWARD_TWICE)
            return ()
        return tuple([None if s is None else s.unpack_array(self) for s in saved])

    def mark_dirty(self, *tensors: Any) -> None:
        """Declare the inputs that forward changed in place (they become its outputs)."""
        self._dirty = tensors
        self._links_in_full = True

    def mark_non_differentiable(self, *tensors: Any) -> None:
        """Declare outputs that carry no gradient (indices, masks): they get no grad_fn."""
        self._non_differentiable = tensors
        self._links_in_full = True

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self._materialize_grads = value


class BackwardFunction(FunctionCtx, Node):
    """The node a `Function.apply` call leaves in the graph; it is also the `ctx`."""

    # Function.apply sets, besides Node's fields, needs_input_grad; and, when some forward
    # arguments were not tensors, how many arguments there were and which were tensors.
    _forward_cls: type
    _materialize_grads = True
    _num_args = 0  # 0: as many as next_functions
    _tensor_positions: tuple | None = None  # None: every argument was a tensor
    # Its backward runs on tensors, never on arrays: it saved under saved_tensors_hooks
    # (saved_hooks.py), or operands of another dtype than it computes in (_apply_promoted).
    _unpacks_through_hooks = False
    # Whether the outputs are linked by `_connect`, the general path, rather than in
    # `_apply_builtin`: set by `mark_dirty` and `mark_non_differentiable`, on the node class of
    # an op with optional tensor arguments, and here while anomaly mode or saved_tensors_hooks
    # are on (`links_in_full_while_modes_are_on`). One test per op for all of them: what a step
    # does not use costs it one attribute read. Declared on this class itself: a name added to
    # a class after the fact is what the checks' integrity snapshot reports as tampering.
    _links_in_full = False
    # A built-in op's node none of whose inputs has an edge (each a view made under no_grad of
    # a tensor that requires grad, or an input that needs none): PyTorch's formula computes
    # nothing and so saves nothing (`_saved_self` is None): a second backward through it
    # passes, calling it gives Nones. Set by `_computes_nothing`.
    _needs_nothing = False

    def name(self) -> str:
        return self._qualname

    def apply(self, *grad_outputs: Any) -> tuple:
        """The Function's backward on tensors (`grad_fn(grad)`), then one gradient per
        `next_functions` entry."""
        if self._needs_nothing:
            return (None,) * len(self._next_functions)
        return self._one_per_input(self._forward_cls.backward(self, *grad_outputs))

    def apply_to_arrays(self, grads: list) -> tuple:
        """The node's turn in a backward pass that builds no graph, where gradients travel as
        numpy arrays (engine.GraphTask.run_node calls the formula itself for a node that has
        nothing more to it): the Function's formula on arrays, `_backward_on_arrays`, the same
        numpy calls as `backward` makes through tensor operations, without an operation's
        bookkeeping for each (what it earns: benchmarks/tricks.md). `backward` runs instead, on
        tensors, for a Function without one, for saved tensors that come back through
        saved_tensors_hooks, and for a gradient that came as a tensor (given by the caller, or
        summed in place over paths: its identity and version must reach .grad as backward
        hands them on)."""
        formula = self._forward_cls._backward_on_arrays
        if (formula is None or self._unpacks_through_hooks or self._needs_nothing
                or Tensor in map(type, grads)):
            return self._apply_at_the_door(grads)
        quiet = _numpy_errors.set(_QUIET)  # numpy's warnings off, as in every operation
        try:
            grads = formula(self, *grads)
        finally:
            _numpy_errors.reset(quiet)
        return self._one_per_input(grads)

    def _apply_at_the_door(self, grads: list) -> tuple:
        """`backward` on tensors in a pass on arrays: arrays come in as tensors, and the
        gradients a built-in op makes go on as arrays when nothing else can see them (a new
        tensor, not a view, never versioned): those that came in, or share a version, stay
        tensors, and so does whatever a learner's Function returns (a hook may look for it)."""
        tensors = [g if g is None or type(g) is Tensor else tensor_of(np.asarray(g)) for g in grads]
        results = self.apply(*tensors)
        if self._forward_cls._is_custom:
            return results
        return tuple([r._data if type(r) is Tensor and r._counter is None and r._base is None
                      and not any(r is g for g in grads) else r for r in results])

    def _one_per_input(self, grads: Any) -> tuple:
        """What a formula returned as one gradient per `next_functions` entry: the gradients
        for the arguments that were not tensors are dropped, and a custom Function's are
        checked."""
        grads = grads if isinstance(grads, tuple) else (grads,)
        if not self._forward_cls._is_custom:  # minigrad's own ops: one per argument, trusted
            if self._tensor_positions is None:  # every argument a tensor (and maybe
                return grads[:len(self._next_functions)]  # a None for a defaulted one after)
            return tuple(map(grads.__getitem__, self._tensor_positions))
        num_args = self._num_args or len(self._next_functions)
        positions = self._tensor_positions or range(num_args)
        if len(grads) > num_args and all(g is None for g in grads[num_args:]):
            grads = grads[:num_args]  # extra Nones (for defaulted arguments) are allowed
        if len(grads) != num_args:  # one gradient per forward argument, None for non-tensors
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {num_args}, got {len(grads)})")
        self._check_gradients(grads, positions)
        if len(positions) == num_args:  # every argument was a tensor
            return grads
        return tuple(map(grads.__getitem__, positions))

    def _check_gradients(self, grads: tuple, positions: Any) -> None:
        """PyTorch's refusals of what a custom backward returned: a gradient for an argument
        that was not a tensor, or a gradient that is neither a tensor nor None."""
        for i, g in enumerate(grads):
            if g is None:
                continue
            if i not in positions:
                raise RuntimeError(f"function {self.name()} returned a gradient different than "
                                   f"None at position {i + 1}, but the corresponding forward "
                                   "input was not a Variable")
            if not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")


class Function:
    """Subclass it with static `forward(ctx, *args)` and `backward(ctx, *grads)`, then call
    `.apply(*args)`. Every minigrad operation is one of these, as in PyTorch."""

    node_name: str | None = None  # the grad_fn's class name; default "<ClassName>Backward"
    node_qualname: str | None = None  # what grad_fn.name() says, when it differs
    # PyTorch's names for what a built-in op saves, read as grad_fn._saved_<name> (saved.py):
    saved_names: tuple[str, ...] = ()  # the tensors given to save_for_backward, in order
    saved_attributes: tuple[str, ...] = ()  # attributes forward set on ctx
    # The positions of PyTorch's optional tensor arguments (`Tensor?`: a convolution's bias):
    # given None, the node still has an edge for it, to nowhere, as PyTorch's has.
    optional_tensors: tuple[int, ...] = ()
    # A built-in op may give its backward again on numpy arrays, for backward passes that build
    # no graph: see _backward_on_arrays. None: `backward` runs, on tensors.
    _backward_on_arrays: Any = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.node_name or f"{cls.__name__}Backward"
        # `type(y.grad_fn)` prints as PyTorch's: <class 'SumBackward0'> for a built-in op,
        # <class 'torch.autograd.function.MyFnBackward'> for a Function of the learner's
        builtin = cls.__module__.split(".")[0] == "minigrad"
        cls._backward_cls = type(name, (BackwardFunction,), {
            "__module__": "builtins" if builtin else "torch.autograd.function",
            "_forward_cls": cls, "_name": name, "_qualname": cls.node_qualname or name,
            **({"_links_in_full": True} if cls.optional_tensors else {}),
            **saved_properties(cls.saved_names, cls.saved_attributes)})
        cls._is_custom = not cls.__module__.startswith("minigrad.")  # not one of minigrad's ops
        cls._is_builtin = not cls._is_custom and cls.setup_context is Function.setup_context
        # The setup_context style (forward without ctx) when the subclass defines it.
        cls._setup_context = (None if cls.setup_context is Function.setup_context
                              else cls.setup_context)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # PyTorch 0.3's Functions were objects, `Double()(x)`: today's are never instantiated
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions "
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an error in a future version "
                      "of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: FunctionCtx, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.")

    @staticmethod
    def setup_context(ctx: FunctionCtx, inputs: tuple, output: Any) -> Any:
        """The other style, kept apart from the computation: `forward(*args)` takes no ctx, and
        this fills ctx from the inputs and the output (what forward returned)."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run `forward` and, when grad mode is on and an input requires grad, link its result
        into the graph (`_connect`): the path of every operation, built-in or yours. (minigrad's
        own operations take the same steps in fewer calls: `_compute` when nothing can be
        recorded, `_apply_builtin` otherwise.)"""
        if cls._is_builtin and not kwargs:
            if not _grad_mode.state.enabled:  # no_grad or inference_mode: nothing to record
                return _compute(cls, args)
            return _apply_builtin(cls, args)
        setup_context = cls._setup_context
        if setup_context is not None:  # PyTorch binds the defaults into the inputs first
            args, kwargs = _bind_with_defaults(cls.forward, args, kwargs)
        if kwargs:  # forward gets them by position: they have a needs_input_grad entry too
            args = _keywords_by_position(cls.forward, args, kwargs, setup_context is None)
        node = cls._backward_cls()  # forward's ctx is the node it leaves in the graph
        node.needs_input_grad = needs = tuple([isinstance(a, Tensor) and a.requires_grad
                                               for a in args])
        mode = _grad_mode.state
        records = mode.enabled and True in needs
        enabled, mode.enabled = mode.enabled, False  # what forward computes is not recorded
        in_inference = mode.inference
        if in_inference:  # grad mode is off inside forward there too (enable_grad's or not)
            grad_in_inference, mode.grad_in_inference = mode.grad_in_inference, False
            if cls._is_custom:  # PyTorch's Python Function obeys grad mode alone: it records
                records = grad_in_inference and True in needs  # under enable_grad there
        quiet = _numpy_errors.set(_QUIET)  # numpy's warnings off: see _run_quietly
        try:
            if setup_context is None:
                outputs = cls.forward(node, *args)
            else:
                outputs = cls.forward(*args)
                setup_context(node, args, outputs)
        finally:
            mode.enabled = enabled
            if in_inference:
                mode.grad_in_inference = grad_in_inference
            _numpy_errors.reset(quiet)
        for tensor in node._dirty:  # changed in place: PyTorch counts one more version
            tensor._bump_version()
        if cls._is_custom and _returns_an_input(outputs, args):  # (minigrad's ops never do)
            outputs = _inputs_returned(node, args, outputs, records, setup_context is not None)
        if records:
            _connect(node, args, outputs if isinstance(outputs, tuple) else (outputs,))
        elif not enabled and getattr(outputs, "_base", None) is not None:
            _mark_no_grad_view(outputs)
        return outputs


def _apply_builtin(cls: type, args: tuple) -> Any:
    """`Function.apply` for one of minigrad's own operations (no keywords, no setup_context)
    with grad mode on, in the fewest calls: the node's inputs are read once, in one loop,
    before forward runs (as PyTorch's kernels collect the edges before they compute): which
    need a gradient, where each one's gradient goes (its edge), its shape and dtype, and what
    the node keeps of those that need none. With no input that requires grad, nothing is
    recorded: `_compute`. Otherwise the same steps as `apply` and `_connect`, with what only a
    custom Function can ask for (an input returned as it is, a view of its own) left out. An
    operation whose result is not one new tensor (several outputs, a view, an input changed in
    place, an output without gradient) or that has optional tensor arguments is linked by
    `_connect` as in `apply`. What this second path earns: benchmarks/tricks.md, row
    `_apply_builtin`; tests/engine/test_fast_paths.py checks that both paths leave the same
    graph."""
    needs, edges, meta = [], [], []
    positions = kept = None  # made when an argument is not a tensor, or needs no gradient
    only_numbers_kept = True
    for i, a in enumerate(args):
        if not isinstance(a, Tensor):
            needs.append(False)
            if positions is None:
                positions = list(range(i))
            continue
        if positions is not None:
            positions.append(i)
        meta.append((a._data.shape, a._data.dtype))
        if a.grad_fn is not None:  # the node that made it,
            edges.append((a.grad_fn, a._output_nr))
        elif a._requires_grad:  # the AccumulateGrad of a leaf (by its own flag),
            edges.append((grad_accumulator(a), 0))
        else:  # or nowhere (a view may still require grad through its base: a.requires_grad)
            if a._promoted_from is not None:  # (an operand of another dtype: rare)
                return _apply_promoted(cls, args)
            needs.append(a._base is not None and a._base.requires_grad and not a._is_inference)
            if a._made_in_no_grad:
                check_no_grad_view_unchanged(a)
            if kept is None:
                kept = [None] * len(edges)
            kept.append(_input_ref(a))
            only_numbers_kept = only_numbers_kept and a._is_wrapped_number
            edges.append(_NO_EDGE)
            continue
        needs.append(True)
        if kept is not None:
            kept.append(None)
    if True not in needs:
        return _compute(cls, args)
    node = cls._backward_cls()  # forward's ctx is the node it leaves in the graph
    needs = tuple(needs)
    node.needs_input_grad = _FLAGS.setdefault(needs, needs)  # (one copy of each: _one_copy)
    mode = _grad_mode.state
    mode.enabled = False  # what forward computes is not recorded
    quiet = _numpy_errors.set(_QUIET)  # numpy's warnings off: see _run_quietly
    try:
        out = cls.forward(node, *args)
    finally:
        mode.enabled = True
        _numpy_errors.reset(quiet)
    if type(out) is not Tensor or out._base is not None or node._links_in_full:
        for tensor in node._dirty:  # changed in place: PyTorch counts one more version
            tensor._bump_version()
        _connect(node, args, out if isinstance(out, tuple) else (out,))
        return out
    if positions is not None:
        node._tensor_positions = _one_copy(tuple(positions))
        node._num_args = len(args)
    node._next_functions = tuple(edges)
    if kept is not None and edges[0] is _NO_EDGE and edges.count(_NO_EDGE) == len(edges):
        _computes_nothing(node, (out,))
    node._input_meta = _one_copy(tuple(meta))
    if kept is not None:  # (inputs that all have an edge: Node's `()`, read as None each)
        node._inputs = _one_copy(tuple(kept)) if only_numbers_kept else tuple(kept)
    node._outputs = weakref.ref(out)  # one output: graph.pack_outputs
    if out._data.dtype.kind == "f":  # only floating point results carry gradients
        out.grad_fn, out._output_nr = node, 0
    if node._to_save is not None:  # (no saved_tensors_hooks: see _links_in_full)
        node._saved, node._to_save = _save(node._to_save, node, None), None
    return out


def _apply_promoted(cls: type, args: tuple) -> Any:
    """`_apply_builtin` for an op given operands cast to the dtype it computes in
    (ops/operands.promoted): forward computes with the cast values, and the node links and
    saves the operands themselves, as PyTorch's kernels promote inside the op: no
    ToCopyBackward0 in next_functions, a saved operand changed in place is refused at backward,
    and each gradient is cast back to its operand's dtype by the engine. The node's backward
    runs on tensors (as under saved_tensors_hooks): its operations promote the saved operands
    as PyTorch's formulas do, where a formula on arrays would compute in their own dtypes."""
    inputs = _as_given(args)
    needs = tuple([isinstance(a, Tensor) and a.requires_grad for a in inputs])
    if True not in needs:
        return _compute(cls, args)
    node = cls._backward_cls()
    node.needs_input_grad = needs
    node._unpacks_through_hooks = True
    mode = _grad_mode.state
    mode.enabled = False  # what forward computes is not recorded
    quiet = _numpy_errors.set(_QUIET)
    try:
        out = cls.forward(node, *args)
    finally:
        mode.enabled = True
        _numpy_errors.reset(quiet)
    for tensor in node._dirty:
        tensor._bump_version()
    if node._to_save is not None:
        node._to_save = _as_given(node._to_save)
    _connect(node, inputs, out if isinstance(out, tuple) else (out,))
    return out


def _as_given(values: tuple) -> tuple:
    """Each promoted operand among `values` as the tensor the op was given."""
    return tuple([v._promoted_from if isinstance(v, Tensor) and v._promoted_from is not None
                  else v for v in values])


def _compute(cls: type, args: tuple) -> Any:
    """A built-in operation that records nothing: its forward, with numpy quiet, and the
    versions of what it changed in place; no node (forward's ctx is a plain FunctionCtx that
    nothing keeps, told that no input needs a gradient: none will be asked for), and grad
    mode left as it is (off, or on with no input that requires grad: forward's own operations
    record nothing either way). A view made under no_grad is marked so
    (`_mark_no_grad_view`), as in `apply`."""
    ctx = FunctionCtx()
    ctx._forward_cls = cls  # (what a node's class says: some forwards read their Function)
    ctx.needs_input_grad = (False,) * len(args)
    quiet = _numpy_errors.set(_QUIET)  # numpy's warnings off: see _run_quietly
    try:
        out = cls.forward(ctx, *args)
    finally:
        _numpy_errors.reset(quiet)
    for tensor in ctx._dirty:  # changed in place: PyTorch counts one more version
        tensor._bump_version()
    if getattr(out, "_base", None) is not None and not _grad_mode.state.enabled:
        _mark_no_grad_view(out)
    return out


def _bind_with_defaults(forward: Any, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """With setup_context, PyTorch binds the call to forward's signature, defaults included
    (Python's own errors for a call that does not fit)."""
    bound = inspect.signature(forward).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args, bound.kwargs


def _keywords_by_position(forward: Any, args: tuple, kwargs: dict, skip_ctx: bool) -> tuple:
    """`F.apply(x, scale=s)`: PyTorch puts each keyword argument at the position of forward's
    parameter of that name (after ctx), so that it is an input like the others, and refuses one
    that is not a positional parameter, given twice, or one that leaves a gap before it."""
    params = [p.name for p in inspect.signature(forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][1 if skip_ctx else 0:]
    slots: list[Any] = list(args)
    missing = object()
    for name, value in kwargs.items():
        if name not in params:
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
        position = params.index(name)
        if position < len(args):
            raise TypeError(f"forward() got multiple values for argument '{name}'")
        slots += [missing] * (position + 1 - len(slots))
        slots[position] = value
    for position, value in enumerate(slots):
        if value is missing:
            raise TypeError(f"forward() missing required argument: '{params[position]}' "
                            f"(position {position})")
    return tuple(slots)


def _returns_an_input(outputs: Any, args: tuple) -> bool:
    """Whether forward returned one of its inputs itself (rare: checked by identity, with a
    plain loop for the one output of most operations)."""
    if type(outputs) is tuple:
        return any(o is a for o in outputs for a in args)
    for a in args:
        if a is outputs:
            return True
    return False


ERR_INPUT_SAVED_AS_IS = (
    "An input that has been returned as-is as output is being saved for backward. This is not "
    "supported if you override setup_context. You should return and save a view of the input "
    "instead, e.g. with x.view_as(x) or setup ctx inside the forward function itself.")


def _inputs_returned(ctx: BackwardFunction, args: tuple, outputs: Any, records: bool,
                     setup_context: bool) -> Any:
    """An input that forward returned unchanged comes out as a new tensor, as in PyTorch: a
    view of it (`x.view_as(x)`), which the graph then gives this node as grad_fn; the input
    keeps its own history (a leaf stays a leaf). Where no gradient flows through this node, an
    input that requires grad comes out detached. One marked dirty (changed in place) is itself
    the output, when it takes this node's gradient."""
    single = not isinstance(outputs, tuple)
    outs = list((outputs,) if single else outputs)
    saved = ctx._to_save or ()
    for i, out in enumerate(outs):
        if not (isinstance(out, Tensor) and any(out is a for a in args)):
            continue
        dirty = any(out is d for d in ctx._dirty)
        if setup_context and not dirty and any(out is t for t in saved):
            raise RuntimeError(ERR_INPUT_SAVED_AS_IS)
        differentiable = (records and out._data.dtype.kind == "f"
                          and not any(out is t for t in ctx._non_differentiable))
        if not differentiable and out.requires_grad:
            outs[i] = out.detach()
        elif not dirty:
            outs[i] = out._view(out._data)
        if records and not differentiable:
            ctx._non_differentiable = (*ctx._non_differentiable, outs[i])
    return outs[0] if single else tuple(outs)


def _connect(node: BackwardFunction, args: tuple, outs: tuple) -> None:
    """Link a freshly computed result into the graph: inputs become `next_functions`, outputs
    get `grad_fn`, and what forward saved is stamped with its version."""
    edges, meta, kept = [], [], []
    only_numbers_kept = True  # see node._inputs below
    # One pass over the inputs rather than one comprehension per field: this runs for every
    # recorded op (what it earns: benchmarks/tricks.md, row "`_connect` reads the inputs").
    for a in args:
        if not isinstance(a, Tensor):
            continue
        meta.append((a._data.shape, a._data.dtype))
        # Where the gradient for `a` goes next:
        if a.grad_fn is not None:  # the node that made it,
            edges.append((a.grad_fn, a._output_nr))
            kept.append(None)
        elif a._requires_grad:  # the AccumulateGrad of a leaf (by its own flag),
            edges.append((grad_accumulator(a), 0))
            kept.append(None)
        else:  # or nowhere: the node remembers the input itself, for diagrams
            if a._made_in_no_grad:
                check_no_grad_view_unchanged(a)
            edges.append(_NO_EDGE)
            kept.append(_input_ref(a))
            only_numbers_kept = only_numbers_kept and a._is_wrapped_number
    if len(edges) != len(args):  # some arguments were not tensors: backward skips them
        optional = node._forward_cls.optional_tensors
        if optional:
            edges, meta, kept = _with_absent_inputs(args, optional, edges, meta, kept)
        node._tensor_positions = _one_copy(tuple([i for i, a in enumerate(args)
                                                if isinstance(a, Tensor)
                                                or (a is None and i in optional)]))
        node._num_args = len(args)
    # (_FLAGS, not _one_copy's table: there (0, 1), a node's tensor positions, equals (False,
    # True), and a learner's backward would read the numbers)
    node.needs_input_grad = _FLAGS.setdefault(node.needs_input_grad, node.needs_input_grad)
    node._next_functions = tuple(edges)  # what Node.next_functions returns
    if (edges and edges[0] is _NO_EDGE and edges.count(_NO_EDGE) == len(edges)
            and not node._forward_cls._is_custom):  # (a learner's backward always runs)
        _computes_nothing(node, outs)
    node._input_meta = _one_copy(tuple(meta))
    # What the node remembers of its inputs that need no gradient, for diagrams (None for the
    # others, which diagrams find through `next_functions`): shared when that is only Python
    # numbers made tensors, which never change.
    node._inputs = _one_copy(tuple(kept)) if only_numbers_kept else tuple(kept)
    node._outputs = _link_outputs(node, outs)
    if len(outs) > 1:  # an output dropped by the caller still gets zeros of its shape
        node._output_meta = tuple((o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                                  else None for o in outs)
    if node._to_save is not None:  # what forward gave save_for_backward, or inside
        # saved_tensors_hooks what pack_hook returns for it
        hooks = saved_hooks.state.hooks if saved_hooks.entered else None
        node._saved, node._to_save = _save(node._to_save, node, hooks), None
    if anomaly.state.enabled:  # for the warning if this node's backward fails (anomaly.py)
        anomaly.record_forward_stack(node)


def _computes_nothing(node: BackwardFunction, outs: tuple) -> None:
    """`node` has no input to send a gradient to: its backward gives Nones
    (BackwardFunction._needs_nothing), and of what it saves, it keeps its outputs only, as
    PyTorch's nodes do. The plain pass calls it as a node with hooks."""
    node._needs_nothing = node._has_hooks = seen.hooks = True
    if node._to_save is not None:
        node._to_save = tuple([t if any(t is out for out in outs) else None
                               for t in node._to_save])


def _with_absent_inputs(args: tuple, optional: tuple, edges: list, meta: list,
                        kept: list) -> tuple[list, list, list]:
    """The node's edges, input metadata and kept inputs with an entry for each optional tensor
    argument given None, in its place among the tensors: an edge to nowhere, ABSENT_INPUT."""
    found = iter(zip(edges, meta, kept))
    rows = [next(found) if isinstance(a, Tensor) else (_NO_EDGE, ABSENT_INPUT, None)
            for i, a in enumerate(args)
            if isinstance(a, Tensor) or (a is None and i in optional)]
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def _mark_no_grad_view(view: Tensor) -> None:
    """A view made under no_grad requires grad whenever its base does (then or later: the
    `requires_grad` property reads the base), as in PyTorch, yet no gradient reaches it or
    through it. While its base requires grad, changing it in place with grad mode on is refused
    (_inplace.check_inplace): was that change meant to be recorded? So is using it in a
    recorded operation once its values have changed in place (its base's, or another view's,
    change): its version then tells. An inference tensor's view is an inference tensor: it
    has no version, and no grad mode to come back to."""
    if view._is_inference:
        return
    view._made_in_no_grad = "inference" if _grad_mode.state.inference else "no_grad"
    view._version_when_made = view._version
    make_no_grad_view(view)


_view_numbers = itertools.count()  # keys that keep a root's views in the order they were made


def track_view(view: Tensor) -> None:
    """A view that joins the graph is remembered by the version counter it shares with its root
    (and the root's detached aliases), while it lives: an in-place change of any of them
    rewrites its history (_inplace._refresh_views). A view made under no_grad has no history
    to rewrite, and is not remembered (see _mark_no_grad_view)."""
    if view._base.requires_grad:
        if view._multi_output_view:  # unbind's: its grad_fn refuses once its memory changes
            make_multi_output_view(view)
        counter = view._version_counter
        if counter.views is None:  # forgets each view when it is garbage
            counter.views = weakref.WeakValueDictionary()
        counter.views[next(_view_numbers)] = view


ERR_INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


def _save(tensors: tuple, ctx: BackwardFunction, hooks: tuple | None) -> tuple:
    """A SavedTensor for each tensor saved (a HookedSavedTensor with saved_tensors_hooks'
    pair, `hooks`). A Python number never changes, so it has one SavedTensor for all the nodes
    that save it (and a tuple of those is shared too). The node notes where it saved no
    tensor: once freed, `grad_fn._saved_self` still reads None there."""
    saved, only_numbers, nothing_at = [], True, []
    for i, t in enumerate(tensors):
        if t is None:
            saved.append(None)
            nothing_at.append(i)
        elif not isinstance(t, Tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument {i} is of "
                            f"type {type(t).__name__}")
        elif t._is_inference:
            raise RuntimeError(ERR_INFERENCE_SAVED)
        elif t._is_wrapped_number:  # never packed, as in PyTorch
            saved.append(_saved_number(t, ctx))
        elif hooks is not None:
            saved.append(HookedSavedTensor(t, ctx, hooks))
            only_numbers = False
        else:  # a node's own output keeps its values, not itself: SavedOutput
            saved.append(SavedOutput(t, ctx) if t.grad_fn is ctx else SavedTensor(t, ctx))
            only_numbers = False
    if nothing_at:
        ctx._never_saved = _one_copy(tuple(nothing_at))
    return _one_copy(tuple(saved)) if only_numbers else tuple(saved)


def links_in_full_while_modes_are_on() -> None:
    """What anomaly mode and saved_tensors_hooks call as they turn on or off: while either is
    on, every node's outputs are linked by `_connect`, which records where the op was made
    (anomaly.py) and packs what it saves through the hooks (saved_hooks.py)."""
    BackwardFunction._links_in_full = anomaly.state.enabled or saved_hooks.entered > 0


anomaly.on_change.append(links_in_full_while_modes_are_on)
saved_hooks.on_change.append(links_in_full_while_modes_are_on)


def _saved_number(number: Any, ctx: BackwardFunction) -> SavedTensor:
    """The one SavedTensor of a wrapped Python number, made by the first node that saves it:
    one per node would add to what each op of `y = y * 0.5` keeps alive (how much:
    benchmarks/tricks.md, row `_saved_number`)."""
    if number._saved_once is None:
        number._saved_once = SavedTensor(number, ctx)
    return number._saved_once


def _link_outputs(ctx: BackwardFunction, outs: tuple) -> tuple:
    """Give each output that carries gradients its `grad_fn`; returns weak references to them
    all (None for an output that is not a tensor), packed by `graph.pack_outputs`."""
    non_diff, dirty = ctx._non_differentiable, ctx._dirty
    if dirty and any(all(d is not out for out in outs) for d in dirty):
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all be "
                           "outputs of the Function.")
    refs = []
    for i, out in enumerate(outs):
        if not isinstance(out, Tensor):
            refs.append(None)
            continue
        refs.append(weakref.ref(out))
        if out._base is not None:
            track_view(out)
        if non_diff and any(out is t for t in non_diff):
            continue
        if out._data.dtype.kind != "f":  # only floating point results carry gradients
            continue
        if dirty and out.grad_fn is None and out._requires_grad and any(out is d for d in dirty):
            raise RuntimeError(ERR_LEAF_DIRTY)
        if out._base is not None and ctx._forward_cls._is_custom and not (
                dirty and any(out is d for d in dirty)):
            make_custom_view(out, out._version)  # its backward is the user's (custom_view.py)
        out.grad_fn, out._output_nr = ctx, i
    return pack_outputs(refs)


# PyTorch words it in the past tense here: forward has already changed the leaf
ERR_LEAF_DIRTY = "a leaf Variable that requires grad has been used in an in-place operation."


# A million-op graph holds a million small tuples that are mostly equal: `y * 0.5` over and over
# has the same flags, input shapes and number. One copy of each, kept in a bounded table (what it
# saves of the memory each op keeps alive: benchmarks/tricks.md, row `_one_copy`).
_COPIES: dict[tuple, tuple] = {}
# The few tuples of needs_input_grad flags minigrad's own operations make (their arguments are
# few): one copy of each, in a table that needs no bound, read without a call.
_FLAGS: dict[tuple, tuple] = {}


def _one_copy(value: tuple) -> tuple:
    """The one copy of `value` that every node holding an equal tuple shares."""
    if len(_COPIES) >= 10_000:  # stays small whatever shapes a program goes through
        _COPIES.clear()
    return _COPIES.setdefault(value, value)


def _input_ref(t: Any) -> Any:
    """What a node remembers of an input that does not require grad, for diagrams: a weak
    reference, except for a 0-d constant (often a Python number made a tensor: `x * 2`), kept
    itself so that a diagram can show it. `graph.input_tensor` reads either."""
    return t if t._data.ndim == 0 else weakref.ref(t)


class DelayedError(Function):
    """What a @once_differentiable backward returns when its result is itself differentiated
    (create_graph=True): the values as they are, with a backward that fails, as in PyTorch."""
    node_name = "DelayedError"

    @staticmethod
    def forward(ctx: FunctionCtx, value: Any) -> Any:
        return tensor_of(value._data)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Any) -> Any:
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


def once_differentiable(fn: Any) -> Any:
    """Decorates a custom Function's backward that is written in plain numbers (numpy), not
    tensor ops: it runs without recording, and differentiating its result fails clearly."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with _grad_mode.no_grad():
            outputs = fn(ctx, *args)
        if not (_grad_mode.is_grad_enabled()
                and any(isinstance(a, Tensor) and a.requires_grad for a in args)):
            return outputs
        single = not isinstance(outputs, tuple)
        wrapped = tuple(DelayedError.apply(o.detach().requires_grad_(o.dtype.is_floating_point))
                        if isinstance(o, Tensor) else o
                        for o in ((outputs,) if single else outputs))
        return wrapped[0] if single else wrapped
    return wrapper
