"""Saved-tensor hooks: `torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`, and
what is built on them (`save_on_cpu` here, `torch.utils.checkpoint`).

Inside the context, every tensor an operation saves for backward goes through
`pack_hook(tensor)` at once, and the node keeps what it returned instead of the tensor; when
backward (or `grad_fn._saved_self`) reads it, `unpack_hook(packed)` must give a tensor back.
As in PyTorch: the innermost pair of hooks applies; pack runs with grad mode off, once per
saved tensor, in the order the operation saves them, and must not change it in place; a
Python number made a tensor (`x * 3`) is never packed; unpack runs at every read, and what it
returns becomes a new tensor with the saved tensor's history (its grad_fn, or the leaf it was);
an in-place change after packing is not detected (the hooks own the values now). What each
operation saves, and in which order, is PyTorch's for the operations tutorials use
(tests/parity/test_saved_tensors_vs_torch.py); the index tensors that gather, where and max(dim)
keep, and prod's result, are not saved tensors in minigrad, so they are not packed.

The engine pays one module attribute read per operation that saves something (`entered`, 0
when no thread is inside a context; a thread-local read costs several times more); all of
the rest runs only inside a context."""
from __future__ import annotations

import threading
from typing import Any, Callable

from .. import _grad_mode
from ..tensor import Tensor, tensor_of


class _PerThread(threading.local):
    hooks: tuple | None = None  # the innermost (pack_hook, unpack_hook), read at every save
    disabled_message: str | None = None  # set by disable_saved_tensors_hooks

    def __init__(self) -> None:
        self.stack: list[tuple] = []  # the pairs of the contexts entered, innermost last


state = _PerThread()  # per thread, as PyTorch's
entered = 0  # contexts open, in all threads: the engine reads `state` only when there are some
_entering = threading.Lock()

ERR_PACK_IN_PLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack "
    "hook cannot be modified by in-place operations as this can lead to unexpected side-effects. "
    "Please open an issue if you need to perform in-place operations on the input to a pack "
    "hook.")


# Told when a context is entered or left: function.links_in_full_while_modes_are_on, which
# sends the nodes made meanwhile through the path that packs what they save (function._connect)
on_change: list = []


def _links_in_full_while_on() -> None:
    for told in on_change:
        told()


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """`with saved_tensors_hooks(pack_hook, unpack_hook):` every tensor saved for backward in
    the block is stored as `pack_hook(tensor)`, and read back as `unpack_hook(packed)`."""

    def __init__(self, pack_hook: Callable[[Tensor], Any],
                 unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self) -> None:
        if state.disabled_message is not None:
            raise RuntimeError(state.disabled_message)
        global entered
        state.stack.append((self.pack_hook, self.unpack_hook))
        state.hooks = state.stack[-1]
        with _entering:
            entered += 1
        _links_in_full_while_on()

    def __exit__(self, *exc_info: Any) -> None:
        global entered
        state.stack.pop()
        state.hooks = state.stack[-1] if state.stack else None
        with _entering:
            entered -= 1
        _links_in_full_while_on()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Saved tensors are kept on the CPU and moved back to their device for backward. On a
    machine that has only the CPU (minigrad's), they stay where they are."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor: Tensor) -> tuple:
            return (tensor.device, tensor.cpu())

        def unpack_from_cpu(packed: tuple) -> Tensor:
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """In this block, setting saved-tensor hooks raises RuntimeError(error_message); so does
    entering it while hooks are set."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> None:
        self._previous = state.disabled_message
        if state.stack:
            raise RuntimeError(self.error_message)
        state.disabled_message = self.error_message

    def __exit__(self, *exc_info: Any) -> None:
        state.disabled_message = self._previous


class HookedSavedTensor:
    """A tensor saved under saved_tensors_hooks: what pack_hook returned, and the saved
    tensor's history, to give the tensor unpack_hook returns. Made by the engine where it
    would make a graph.SavedTensor."""

    __slots__ = ("packed", "unpack_hook", "grad_fn", "output_nr", "requires_grad",
                 "accumulator", "counter", "was_output")
    is_own_output = False  # (graph.SavedOutput's flag: an in-place change never rewrites this)

    def __init__(self, tensor: Tensor, owner: Any, hooks: tuple) -> None:
        pack_hook, self.unpack_hook = hooks
        self.was_output = tensor.grad_fn is owner and owner is not None
        if owner is not None:  # its backward sees what unpack_hook returns: on tensors
            owner._unpacks_through_hooks = True
        # The node's own output gets the node back at unpack: keeping it here would make a
        # cycle (node -> saved -> node).
        self.grad_fn = None if self.was_output else tensor.grad_fn
        self.output_nr = tensor._output_nr
        self.requires_grad = tensor.requires_grad
        self.accumulator = tensor._accumulator  # a leaf's AccumulateGrad, weakly
        self.counter = tensor._version_counter
        version = self.counter.value
        enabled, _grad_mode.state.enabled = _grad_mode.state.enabled, False
        try:
            self.packed = pack_hook(tensor)
        finally:
            _grad_mode.state.enabled = enabled
        if self.counter.value != version:
            raise RuntimeError(ERR_PACK_IN_PLACE)

    def unpack(self, owner: Any) -> Tensor:
        value = self.unpack_hook(self.packed)
        if not isinstance(value, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(value).__name__}")
        out = tensor_of(value._data)
        out._counter = self.counter
        fn = owner if self.was_output else self.grad_fn
        if fn is not None:
            out.grad_fn, out._output_nr = fn, self.output_nr
        elif self.requires_grad:  # a leaf: gradients through `out` reach the leaf's .grad
            out._requires_grad, out._accumulator = True, self.accumulator
        return out
