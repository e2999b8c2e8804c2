"""Module hooks: forward pre-hooks and forward hooks around forward, and backward hooks, the
way PyTorch wires them: the module's tensor inputs and outputs
each pass through an identity Function (grad_fn BackwardHookFunctionBackward). The node on the
outputs catches grad_output on its way in; the node on the inputs runs last, with grad_input,
calls the user's hooks, and passes on whatever they return in its place."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

from .. import _grad_mode
from ..autograd.function import Function
from ..autograd.graph import RemovableHandle
from ..tensor import Tensor


_MINIGRAD = str(Path(__file__).resolve().parent.parent)


def _caller_outside_minigrad() -> int:
    """The `stacklevel` of the first frame outside minigrad: the line that called backward()."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_MINIGRAD):
        frame, level = frame.f_back, level + 1
    return level


def add_hook(hooks: Any, hook: Any, prepend: bool) -> RemovableHandle:
    """Register `hook` in the ordered dict `hooks` (first if `prepend`); the handle removes it."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def call_with_hooks(module: Any, args: tuple, kwargs: dict) -> Any:
    """`module(*args, **kwargs)` with its hooks, in PyTorch's order: forward pre-hooks (which
    may replace the arguments), backward hooks wired on the inputs, forward, forward hooks
    (which may replace the result), backward hooks wired on the outputs."""
    for hook, with_kwargs in module.__dict__.get("_forward_pre_hooks", {}).values():
        result = hook(module, args, kwargs) if with_kwargs else hook(module, args)
        if result is None:
            continue
        if with_kwargs:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                   f"new_kwargs), but got {result}.")
            args, kwargs = result
        else:
            args = result if isinstance(result, tuple) else (result,)
    backward = list(module.__dict__.get("_backward_hooks", {}).values())
    backward_pre = list(module.__dict__.get("_backward_pre_hooks", {}).values())
    wiring = BackwardHook(module, backward, backward_pre) if backward or backward_pre else None
    if wiring is not None:
        args = wiring.setup_input_hook(args)
    result = module.forward(*args, **kwargs)
    for hook, with_kwargs in module.__dict__.get("_forward_hooks", {}).values():
        out = hook(module, args, kwargs, result) if with_kwargs else hook(module, args, result)
        if out is not None:
            result = out
    return result if wiring is None else wiring.setup_output_hook(result)


class BackwardHookFunction(Function):
    """The identity on each tensor: d = g. It exists to carry the hooks."""
    node_name = "BackwardHookFunctionBackward"

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return tuple(a._alias() for a in args)  # new tensors: the arguments keep their grad_fn

    @staticmethod
    def backward(ctx, *grads):
        return grads


def _pack(indices: list, values: tuple, size: int) -> tuple:
    """Put the gradients of the tensor arguments back among the other arguments (as None)."""
    packed = [None] * size
    for index, value in zip(indices, values):
        packed[index] = value
    return tuple(packed)


class BackwardHook:
    """One module call's hook wiring: set up on the inputs before forward, on the outputs after."""

    def __init__(self, module: Any, user_hooks: list, user_pre_hooks: list = ()) -> None:
        self.module, self.user_hooks, self.user_pre_hooks = module, user_hooks, user_pre_hooks
        self.grad_outputs: tuple | None = None
        self.n_inputs = self.n_outputs = -1
        self.input_index: list | None = None
        self.output_index: list | None = None

    def _wrap_tensors(self, args: tuple, on_node: Any) -> tuple[tuple, list | None]:
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not (_grad_mode.is_grad_enabled() and any(args[i].requires_grad for i in index)):
            return args, None
        new = BackwardHookFunction.apply(*[args[i] for i in index])
        node = next(t.grad_fn for t in new if t.grad_fn is not None)
        on_node(node)
        changed = list(args)
        for i, tensor in zip(index, new):
            changed[i] = tensor
        return tuple(changed), index

    def setup_input_hook(self, args: tuple) -> tuple:
        args, self.input_index = self._wrap_tensors(args, self._hook_inputs)
        self.n_inputs = len(args)
        return args

    def setup_output_hook(self, result: Any) -> Any:
        if not isinstance(result, (Tensor, tuple)):
            warnings.warn("For backward hooks to be called, module output should be a Tensor or "
                          f"a tuple of Tensors but received {type(result)}", stacklevel=3)
        outputs = result if isinstance(result, tuple) else (result,)
        outputs, self.output_index = self._wrap_tensors(outputs, self._hook_outputs)
        self.n_outputs = len(outputs)
        return outputs if isinstance(result, tuple) else outputs[0]

    def _hook_outputs(self, node: Any) -> None:
        def catch(grad_outputs: tuple) -> Any:
            self.grad_outputs = _pack(self.output_index, grad_outputs, self.n_outputs)
            for pre_hook in self.user_pre_hooks:  # they may replace grad_output
                replaced = pre_hook(self.module, self.grad_outputs)
                if replaced is None:
                    continue
                if len(replaced) != len(self.grad_outputs):
                    raise RuntimeError("Backward pre hook returned an invalid number of "
                                       f"grad_output, got {len(replaced)}, but expected "
                                       f"{len(self.grad_outputs)}")
                self.grad_outputs = replaced
            passed_on = self.grad_outputs
            if self.input_index is None:  # no input needs a gradient: call the hooks now
                warnings.warn("Full backward hook is firing when gradients are computed with "
                              "respect to module outputs since no inputs require gradients. See "
                              "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                              "#torch.nn.Module.register_full_backward_hook for more details.",
                              UserWarning, stacklevel=_caller_outside_minigrad())
                grad_inputs = (None,) * self.n_inputs
                for hook in self.user_hooks:
                    res = hook(self.module, grad_inputs, self.grad_outputs)
                    if res is not None and not (isinstance(res, tuple)
                                                and all(r is None for r in res)):
                        raise RuntimeError("Backward hook for Modules where no input requires "
                                           "gradient should always return None or None for all "
                                           "gradients.")
                self.grad_outputs = None
            return tuple(passed_on[i] for i in self.output_index)
        node.register_prehook(catch)

    def _hook_inputs(self, node: Any) -> None:
        def call_user_hooks(grad_inputs: tuple, _grad_outputs: tuple) -> Any:
            if self.grad_outputs is None:  # the gradient did not come through the outputs
                return None
            packed = _pack(self.input_index, grad_inputs, self.n_inputs)
            for hook in self.user_hooks:
                out = hook(self.module, packed, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(packed):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(packed)}")
                packed = out
            self.grad_outputs = None
            return tuple(packed[i] for i in self.input_index)
        node.register_hook(call_user_hooks)
