"""torch.utils.checkpoint: trade compute for memory. `checkpoint(function, *args)` runs
`function` without keeping what its operations save for backward, and runs it again during
backward to get those tensors back.

With use_reentrant=False (what PyTorch recommends) it is made of saved-tensor hooks
(autograd/saved_hooks.py): the graph is built as usual, but each tensor saved inside is packed
as an empty placeholder (with its shape and dtype, to check the rerun). The first placeholder
unpacked in a backward pass reruns `function` on the saved inputs, with the random state it
had and under hooks that collect what the rerun saves, in the same order; it stops as soon as
it has them all. Each placeholder gives its tensor once per pass.

With use_reentrant=True (the default when it is not passed, with PyTorch's warning) it is a
Function (CheckpointFunctionBackward) that runs `function` under no_grad and, in its backward,
reruns it with grad on and calls backward inside the backward pass; it refuses autograd.grad
and backward(inputs=...)."""
from __future__ import annotations

import contextlib
import warnings
import weakref
from typing import Any, Callable, Iterator

from .. import _grad_mode
from ..autograd import backward as _autograd_backward
from ..autograd.engine import CapturingTask, running
from ..autograd.function import Function
from ..autograd.graph import SavedTensor
from ..autograd.saved_hooks import HookedSavedTensor, saved_tensors_hooks, state
from ..nn import Sequential
from ..random import get_rng_state, set_rng_state
from ..tensor import Tensor

__all__ = ["CheckpointError", "checkpoint", "checkpoint_sequential", "set_checkpoint_early_stop"]


class CheckpointError(RuntimeError):
    """The rerun of a checkpointed function did not save what its first run saved."""


DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""  # PyTorch's, word for word: minigrad has no debug mode, but a learner compares messages
USE_REENTRANT_WARNING = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")
SEQUENTIAL_USE_REENTRANT_WARNING = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
    "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")

_early_stop_override: bool | None = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool) -> Iterator[None]:
    """Checkpoints made in this block stop (or, with False, do not stop) their rerun as soon
    as it has saved every tensor backward needs."""
    global _early_stop_override
    previous, _early_stop_override = _early_stop_override, enable
    try:
        yield
    finally:
        _early_stop_override = previous


def _noop_context_fn() -> tuple:
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function: Callable, *args: Any, use_reentrant: bool | None = None,
               context_fn: Callable[[], tuple] = _noop_context_fn,
               determinism_check: str = "default", debug: bool = False,
               early_stop: bool = True, **kwargs: Any) -> Any:
    """`function(*args, **kwargs)`, keeping none of what its operations save for backward:
    backward runs it again (with the same random numbers, unless preserve_rng_state=False)."""
    if use_reentrant is None:
        warnings.warn(USE_REENTRANT_WARNING, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not _noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if determinism_check not in ("default", "none"):
        raise ValueError("determinism_check should be one of ['default', 'none'], but got "
                         f"{determinism_check}")
    forward_context, recompute_context = context_fn()
    rng_state = get_rng_state() if preserve else None

    def rerun(*inputs: Any) -> None:
        with _rng_as(rng_state), recompute_context:
            function(*inputs, **kwargs)

    if not _grad_mode.is_grad_enabled():  # no graph: nothing would be saved anyway
        return function(*args, **kwargs)
    stop = _early_stop_override if _early_stop_override is not None else early_stop
    frame = _Frame(rerun, stop, determinism_check == "default", args)
    with _CheckpointHooks(frame), forward_context:
        result = function(*args, **kwargs)
    frame.forward_completed = True
    return result


@contextlib.contextmanager
def _rng_as(rng_state: Any) -> Iterator[None]:
    """The default generator as it was at `rng_state` inside the block (if not None), and as it
    is now after it (PyTorch's fork_rng)."""
    if rng_state is None:
        yield
        return
    outside = get_rng_state()
    set_rng_state(rng_state)
    try:
        yield
    finally:
        set_rng_state(outside)


def _metadata(t: Tensor) -> dict:
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


def _saved_input(t: Tensor) -> Any:
    """An input of the checkpointed function, kept as a saved tensor (as PyTorch's
    _make_saved_tensor does: under saved-tensor hooks set outside, it is packed)."""
    hooks = state.hooks
    return HookedSavedTensor(t, None, hooks) if hooks is not None else SavedTensor(t, _NO_NODE)


_NO_NODE = object()  # the "node" of an input saved outside any node: never its producer


class _Holder:
    """What a tensor saved inside a checkpoint is packed as: nothing but, per backward pass,
    the key of its recomputed value."""

    def __init__(self) -> None:
        # per backward pass (weakly: a pass that is over goes), the key of its value
        self.handles: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Frame:
    """One checkpointed call: its inputs, a weak reference per placeholder in the order the
    tensors were saved, their metadata, and what each backward pass recomputed."""

    def __init__(self, rerun: Callable, early_stop: bool, check_metadata: bool,
                 args: tuple) -> None:
        self.rerun, self.early_stop, self.check_metadata = rerun, early_stop, check_metadata
        self.inputs = [_saved_input(a) if isinstance(a, Tensor) else a for a in args]
        self.holders: list[weakref.ref] = []
        self.metadata: list[dict] = []
        # per backward pass, weakly (a pass that is over goes): handle -> recomputed tensor,
        # and how many tensors the rerun saved
        self.recomputed: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.count: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.forward_completed = False
        self.ignore_mismatch = False

    def recompute(self, pass_id: Any) -> None:
        inputs = [a.unpack(None) if isinstance(a, (SavedTensor, HookedSavedTensor)) else a
                  for a in self.inputs]
        self.recomputed[pass_id], self.count[pass_id] = weakref.WeakKeyDictionary(), 0
        try:
            with _RecomputationHooks(self, pass_id), _grad_mode.enable_grad():
                self.rerun(*inputs)
        except _StopRecomputation:
            pass
        self.check(pass_id)

    def check(self, pass_id: Any) -> None:
        if self.ignore_mismatch:
            return
        if len(self.holders) != self.count[pass_id]:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                f"original forward and recomputation.\nNumber of tensors saved during forward: "
                f"{len(self.holders)}\nNumber of tensors saved during recomputation: "
                f"{self.count[pass_id]}.\n{DEBUG_TIP}")
        if not self.check_metadata:
            return
        different = ""
        for i, ref in enumerate(self.holders):
            holder = ref()
            if holder is None:
                continue
            again = _metadata(self.recomputed[pass_id][holder.handles[pass_id]])
            if again != self.metadata[i]:
                different += (f"tensor at position {i}:\nsaved metadata: {self.metadata[i]}\n"
                              f"recomputed metadata: {again}\n")
        if different:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{different}.\n{DEBUG_TIP}")


class _StopRecomputation(Exception):
    """Raised inside the rerun once it has saved every tensor wanted: early stop."""


class _CheckpointHooks(saved_tensors_hooks):
    """The hooks of the first run: each saved tensor becomes a _Holder."""

    def __init__(self, frame: _Frame) -> None:
        def pack(t: Tensor) -> _Holder:
            holder = _Holder()
            frame.holders.append(weakref.ref(holder))
            if frame.check_metadata:
                frame.metadata.append(_metadata(t))
            return holder

        def unpack(holder: _Holder) -> Tensor:
            # one recomputation per backward pass; one per read outside any
            pass_id = running.task if running.task is not None else _ReadOutsideBackward()
            if pass_id not in frame.recomputed:
                frame.recompute(pass_id)
            handle = holder.handles.get(pass_id)
            if handle is None:
                raise CheckpointError(
                    "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                    "already unpacked once. If you are calling ctx.saved_tensors in backward, "
                    "make sure to do so only once. Otherwise please open an issue with details "
                    "on your use case.")
            holder.handles[pass_id] = None
            return frame.recomputed[pass_id][handle]

        super().__init__(pack, unpack)


class _Handle:
    """A key of _Frame.recomputed: the value goes when the holder lets its handle go."""


class _ReadOutsideBackward:
    """The "backward pass" of a saved tensor read outside any (grad_fn._saved_result)."""


class _RecomputationHooks(saved_tensors_hooks):
    """The hooks of the rerun: the n-th tensor it saves goes to the n-th placeholder."""

    def __init__(self, frame: _Frame, pass_id: Any) -> None:
        def pack(t: Tensor) -> Tensor:
            t = t.detach() if t.requires_grad else t
            index = frame.count[pass_id]
            frame.count[pass_id] += 1
            if index >= len(frame.holders):
                if not frame.forward_completed:  # a backward inside the first run
                    frame.ignore_mismatch = True
                    return t
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors "
                                      "during recomputation than during the original forward "
                                      f"pass.\n{DEBUG_TIP}")
            holder = frame.holders[index]()
            if holder is not None:  # else its node has freed it: nobody will ask
                holder.handles[pass_id] = handle = _Handle()
                frame.recomputed[pass_id][handle] = t
            if frame.early_stop and frame.count[pass_id] == len(frame.holders):
                raise _StopRecomputation
            return t

        super().__init__(pack, lambda t: t)


class CheckpointFunction(Function):
    """run_function(*args) without a graph: backward reruns it with one and backpropagates"""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        if not any(a.requires_grad for a in args if isinstance(a, Tensor)):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          stacklevel=2)
        ctx.run_function = run_function
        ctx.rng_state = get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if isinstance(running.task, CapturingTask):
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
                "passing an `inputs` parameter to .backward(). To resolve this error, you can "
                "either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _rng_as(ctx.rng_state):
            detached = [_detached(a) for a in inputs]
            with _grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        pairs = [(out, g) for out, g in zip(outputs, grads)
                 if isinstance(out, Tensor) and out.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        _autograd_backward([out for out, _ in pairs], [g for _, g in pairs])
        return (None, None, *[a.grad if isinstance(a, Tensor) else None for a in detached])


def _detached(a: Any) -> Any:
    if not isinstance(a, Tensor):
        return a
    out = a.detach()
    out.requires_grad = a.requires_grad
    return out


def checkpoint_sequential(functions: Any, segments: int, input: Tensor,
                          use_reentrant: bool | None = None, **kwargs: Any) -> Tensor:
    """Runs `functions` (an nn.Sequential or a list of modules) in order, in `segments` parts,
    each checkpointed but the last."""
    if use_reentrant is None:
        warnings.warn(SEQUENTIAL_USE_REENTRANT_WARNING, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run(start: int, end: int) -> Callable:
        def forward(x: Tensor) -> Tensor:
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
