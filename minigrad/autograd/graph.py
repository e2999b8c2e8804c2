"""The backward graph itself: its nodes (PyTorch's `grad_fn` objects) and the tensors a node
saves for backward, with the version they had, for the in-place error. This module sits below
Tensor; the node that ends every path to a leaf, `AccumulateGrad`, works on tensors, so it is
in accumulate.py."""
from __future__ import annotations

import itertools
import re
import weakref
from types import MappingProxyType
from typing import Any

from .._handles import RemovableHandle, seen
from . import anomaly

_sequence = itertools.count()  # creation order; the engine runs later nodes first, as PyTorch does

ERR_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
# An in-place change of a leaf that requires grad, refused by _inplace (a custom Function that
# marks such a leaf dirty gets function.ERR_LEAF_DIRTY).
ERR_LEAF_IN_PLACE = "a leaf Variable that requires grad is being used in an in-place operation."
ERR_DETACHED_IN_PLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead")  # sic: no space


class SavedTensor:
    """A tensor kept for backward, with the version it had then: if it is changed in place
    afterwards, its old values are gone and unpacking raises PyTorch's error. (A node's own
    output is kept by `SavedOutput`, below.)

    The version is read from the tensor itself, at save and at unpack. Most tensors saved
    were never changed in place and share their version with nothing: they have no counter
    (`Tensor._counter` is None: version 0), and saving one makes none. Should it get one
    later (changed in place, or a view or detached alias made of it), it gets it on the
    tensor kept here, where unpack finds it."""

    __slots__ = ("tensor", "version", "output_nr")
    is_own_output = False

    def __init__(self, tensor: Any, owner: Node) -> None:
        counter = tensor._counter  # (Tensor._version, without the property's call)
        self.version = 0 if counter is None else counter.value
        self.output_nr = None if tensor.grad_fn is None else tensor._output_nr  # None: a leaf
        self.tensor = tensor

    @property
    def current_version(self) -> int:
        """The saved tensor's version now; unpacking fails if it is not `version`."""
        return self.tensor._version

    def unpack(self, owner: Node) -> Any:
        counter = self.tensor._counter
        if counter is not None and counter.value != self.version:
            raise self._modified(owner)
        if self.output_nr is not None and self.tensor.grad_fn is None:
            raise RuntimeError(ERR_DETACHED_IN_PLACE)  # it had a history when saved
        return self.tensor

    def unpack_array(self, owner: Node) -> Any:
        """`unpack(owner)._data`, the same checks, for a formula on arrays."""
        tensor = self.tensor
        counter = tensor._counter
        if (counter is None or counter.value == self.version) and (
                self.output_nr is None or tensor.grad_fn is not None):
            return tensor._data  # the common case first
        return self.unpack(owner)._data  # (raises PyTorch's error)

    def _modified(self, owner: Node) -> RuntimeError:
        """PyTorch's error for a saved tensor changed in place since it was saved."""
        t = self.tensor
        what = f"[{_type_name(t)} [{', '.join(str(s) for s in t.shape)}]]"
        if self.output_nr is not None or t._own_node() is not None:  # (one saved without a
            # history, that has one now: PyTorch names it by its grad_fn now)
            # PyTorch names the op that made the tensor as it is now (an in-place op makes it
            # that op's output), by its forward name: "Exp" for ExpBackward0. A view's history
            # is read again once its memory has changed since its grad_fn was set, which the
            # change found here means: as an AsStrided of its base (an optimizer's step on the
            # weight a Linear saved transposed says "of AsStrided", not "of T"), or, for one of
            # several views made by one node (unbind's), refused.
            if self.is_own_output:
                name, nr = forward_name(owner.name()), self.output_nr
            elif (t._base is not None and t._own_node() is not None
                    and not t._custom_function_view):
                if t._multi_output_view:
                    return changed_multi_output_view_error(t)
                name, nr = "AsStrided", 0
            else:
                name, nr = forward_name(t.grad_fn.name()), t._output_nr
            what += f", which is output {nr} of {name},"
        return RuntimeError(
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {what} is at version {self.current_version}; expected version "
            f"{self.version} instead. Hint: {_hint()}")


def changed_multi_output_view_error(view: Any) -> RuntimeError:
    """PyTorch's refusal to read again the history of one of several views one node made
    (unbind's), whose memory has changed since: autograd/multi_output_view.py."""
    return RuntimeError(
        f"Output {view._output_nr} of {forward_name(view._own_node().name())} is a view and its "
        "base or another view of its base has been modified inplace. This view is the output "
        "of a function that returns multiple views. Such functions do not allow the output "
        "views to be modified inplace. You should replace the inplace operation by an "
        "out-of-place one.")


def _type_name(t: Any) -> str:
    """A tensor's type as PyTorch's messages name it: `t.type()` for the eight dtypes of the
    legacy tensor classes, "CPUBoolType" for the others."""
    if t.dtype.scalar_name in ("Byte", "Char", "Short", "Int", "Long", "Half", "Float",
                               "Double"):
        return t.type()
    return f"CPU{t.dtype.scalar_name}Type"


class SavedOutput(SavedTensor):
    """A node's own output kept for backward (`ReluBackward0` keeps its result): its values
    and version counter, not the tensor, whose grad_fn is the node (holding it would make a
    reference cycle, output -> grad_fn -> output). Unpacked, it is a new tensor on the same
    values each time, with the node as its grad_fn. No tensor is made to save it: a formula
    on arrays reads `data` (what that earns: benchmarks/op_path.md, "what a node saves").

    The version counter is the output's, as for any saved tensor: none until one is needed
    (`counter` None: version 0). The output makes it when it is changed in place or shares
    it with a view or an alias, and hands it here (`Tensor._hand_counter_to_node`), before
    it ever belongs to another node; a read that gives the values out as a tensor makes it
    here (`shared_counter`), on the output too while it lives. Most outputs never get one:
    relu's in a training step."""

    __slots__ = ("data", "counter", "output")
    is_own_output = True

    def __init__(self, output: Any, owner: Node) -> None:
        counter = output._counter
        self.counter = counter
        self.version = 0 if counter is None else counter.value
        self.output_nr = output._output_nr
        self.data = output._data
        self.output = weakref.ref(output)  # (the node's own weak reference: the same object)

    @property
    def current_version(self) -> int:
        return 0 if self.counter is None else self.counter.value

    def shared_counter(self) -> Any:
        """The output's version counter, made now if neither has one yet."""
        if self.counter is None:
            output = self.output()  # alive, it makes the counter and hands it here
            self.counter = _VersionCounter() if output is None else output._version_counter
        return self.counter

    @property
    def tensor(self) -> Any:  # type: ignore[override]
        """The saved values as a tensor without history (for diagrams and saved-tensor
        hooks), sharing the output's version counter."""
        alias = tensor_of(self.data)
        alias._counter = self.shared_counter()
        return alias

    def unpack(self, owner: Node) -> Any:
        counter = self.counter
        if counter is not None and counter.value != self.version:
            raise self._modified(owner)
        out = self.tensor  # reattached, so that a graph of the backward pass can be built
        out.grad_fn, out._output_nr = owner, self.output_nr
        return out

    def unpack_array(self, owner: Node) -> Any:
        counter = self.counter
        if counter is not None and counter.value != self.version:
            raise self._modified(owner)
        return self.data


def _hint() -> str:
    if anomaly.state.enabled:  # the anomaly warning, just before this error, shows the line
        return ("the backtrace further above shows the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. "
                "Good luck!")
    return ("enable anomaly detection to find the operation that failed to compute its gradient, "
            "with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def forward_name(node_name: str) -> str:
    """The operation a backward node belongs to, as PyTorch's messages name it: "ExpBackward0"
    -> "Exp", but "ClampBackward1" -> "Clamp1" (an overload other than the first keeps its
    number), "MyFnBackward" -> "MyFn"."""
    return re.sub(r"Backward(\d*)$", lambda m: "" if m[1] == "0" else m[1], node_name)


_NO_HOOKS: Any = MappingProxyType({})  # shared, read-only, until a node gets a hook of its own
_NO_EDGE = (None, 0)  # next_functions' entry for an input that does not require grad
# _input_meta's entry for an optional tensor argument given None (function.optional_tensors):
# an edge to nowhere, with nothing behind it to draw
ABSENT_INPUT = (None, None)


class Node:
    """A step of the backward pass. `next_functions` points at the nodes that produced this
    node's inputs; leaves that require grad end in an `AccumulateGrad`."""

    # A field is a class default until set: most nodes never get hooks, retained outputs or
    # metadata, and the node of an operation run under no_grad (every operation of a backward
    # pass) is never linked into a graph at all.
    _name = "Node"
    _next_functions: tuple = ()  # (node, output_nr) per input: see next_functions
    _saved: tuple[SavedTensor | None, ...] | None = None
    _freed = False
    _never_saved: tuple = ()  # the positions of _saved that hold no tensor (saved.py)
    _input_meta: tuple = ()  # (shape, numpy dtype) per input, to check gradients
    _outputs: Any = ()  # weak references to the outputs: see pack_outputs
    _inputs: tuple = ()  # inputs that do not require grad, for diagrams: input_tensor
    # (shape, numpy dtype) per output, for a node with several (function._connect): zeros for
    # an output that got no gradient, and how many slots the engine's buffer has
    _output_meta: tuple | None = None
    _tensor_hooks: dict[int, dict] | None = None  # output_nr -> {id: hook}
    _retained: dict[int, weakref.ref] | None = None  # output_nr -> tensor to keep .grad on
    _pre_hooks: dict = _NO_HOOKS
    _post_hooks: dict = _NO_HOOKS
    # Whether anything besides its formula may run at this node's turn in backward: a hook on a
    # tensor it made (on its leaf, for an AccumulateGrad), a retained .grad, a pre- or
    # post-hook. Set wherever those are added (with `_handles.seen.hooks`), and left set when
    # one is removed: the engine's one test before the plain path, once any node has had one
    # (engine.GraphTask.run_node_minding_hooks).
    _has_hooks = False
    _metadata: dict | None = None

    def __init__(self) -> None:
        self._sequence_nr = next(_sequence)

    @property
    def next_functions(self) -> tuple:
        """`(node, output_nr)` for each input: where its gradient goes next (`(None, 0)` if it
        needs none). Read-only, as in PyTorch."""
        return self._next_functions

    @property
    def metadata(self) -> dict:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:  # PyTorch's, by class name, without the address
        cls = type(self)  # a learner's Function: <torch.autograd.function.MyFnBackward object>
        where = "" if cls.__module__ == "builtins" else f"{cls.__module__}."
        return f"<{where}{cls.__qualname__} object>"

    def register_hook(self, hook: Any) -> RemovableHandle:
        """`hook(grad_inputs, grad_outputs)` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is _NO_HOOKS:
            self._post_hooks = {}
        self._has_hooks = seen.hooks = True
        handle = RemovableHandle(self._post_hooks)
        self._post_hooks[handle.id] = hook
        return handle

    def register_prehook(self, hook: Any) -> RemovableHandle:
        """`hook(grad_outputs)` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is _NO_HOOKS:
            self._pre_hooks = {}
        self._has_hooks = seen.hooks = True
        handle = RemovableHandle(self._pre_hooks)
        self._pre_hooks[handle.id] = hook
        return handle

    def _add_tensor_hook(self, output_nr: int, hook: Any) -> RemovableHandle:
        if self._tensor_hooks is None:
            self._tensor_hooks = {}
        self._has_hooks = seen.hooks = True
        hooks = self._tensor_hooks.setdefault(output_nr, {})
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def apply(self, *grad_outputs: Any) -> tuple:  # pragma: no cover - overridden
        raise NotImplementedError

    def apply_to_arrays(self, grads: list) -> tuple:  # pragma: no cover - overridden
        """`apply` in a backward pass that builds no graph: the gradients are numpy arrays (or
        tensors, where they came as tensors)."""
        raise NotImplementedError

    def __call__(self, *grad_outputs: Any) -> Any:
        grads = self.apply(*grad_outputs)
        return grads[0] if len(grads) == 1 else grads


# A node keeps weak references to its outputs, for diagrams and in-place ops. Most nodes have
# one output, and they hold that reference itself rather than a tuple of one: a tuple is 48
# bytes and one more object for the garbage collector per op of a long chain (what it saves:
# benchmarks/tricks.md, row `pack_outputs`). These four functions are the only ones that know.

def pack_outputs(refs: list) -> Any:
    """What a node stores in `_outputs`, given a weak reference (or None) per output."""
    return refs[0] if len(refs) == 1 and refs[0] is not None else tuple(refs)


def output_ref(node: Node, nr: int) -> weakref.ref | None:
    """The weak reference to output `nr` of `node` (None if that output is not a tensor)."""
    refs = node._outputs
    if isinstance(refs, weakref.ref):
        return refs if nr == 0 else None
    return refs[nr] if nr < len(refs) else None


def num_outputs(node: Node) -> int:
    return 1 if isinstance(node._outputs, weakref.ref) else len(node._outputs)


def replace_output(node: Node, old: Any, new: Any) -> None:
    """`new` takes the place of the output `old` (an in-place op's result becomes its input)."""
    refs = [output_ref(node, nr) for nr in range(num_outputs(node))]
    node._outputs = pack_outputs([weakref.ref(new) if r is not None and r() is old else r
                                  for r in refs])


def input_tensor(node: Node, position: int) -> Any:
    """Input `position` of `node` if it did not require grad and is still alive, else None.
    (The others are found through `next_functions`.)"""
    ref = node._inputs[position] if position < len(node._inputs) else None
    if ref is None or not isinstance(ref, weakref.ref):
        return ref  # a 0-d constant is kept itself
    return ref()


# torch.autograd.graph's public hooks for saved tensors (they live in saved_hooks.py, which
# needs Tensor, above this module)
from .saved_hooks import (disable_saved_tensors_hooks, save_on_cpu,  # noqa: E402, F401
                          saved_tensors_hooks)
from .mutation_on_saved import allow_mutation_on_saved_tensors  # noqa: E402, F401
# (SavedOutput's; Tensor is above this module)
from ..tensor import _VersionCounter, tensor_of  # noqa: E402
