"""The end of every path to a leaf: `AccumulateGrad`, the node that adds the gradient reaching a
leaf into its `.grad`. The first gradient is copied into `.grad`, the next ones are added to it
(`accumulate_into`, which `retain_grad()` uses on a non-leaf too)."""
from __future__ import annotations

import warnings
import weakref
from typing import Any

import numpy as np

from .. import _grad_mode
from ..tensor import Tensor, tensor_of
from .graph import Node
from .hook_results import checked_hook_result
from .numpy_quiet import _run_quietly


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: running it adds the gradient into `.grad`."""

    _name = "torch::autograd::AccumulateGrad"
    _sequence_nr = float("inf")  # PyTorch runs these as soon as they are ready

    def __init__(self, variable: Tensor) -> None:  # (made again at each forward: see
        self.variable = variable  # grad_accumulator. It takes no creation number, as above)
        if variable._hooks is not None:  # (a hook registered later sets it: register_hook)
            self._has_hooks = True

    @property
    def _tensor_hooks(self) -> dict | None:  # a leaf's hooks live on the leaf itself (read-only)
        hooks = self.variable._hooks
        return {0: hooks} if hooks else None

    def __repr__(self) -> str:
        return "<AccumulateGrad object>"

    def apply_to_arrays(self, grads: list) -> tuple:
        return self.apply(*grads)  # takes an array as it is

    def apply(self, grad: Tensor | np.ndarray) -> tuple:
        """Add `grad` into the leaf's `.grad`, then run the leaf's post-accumulate-grad hooks
        (each is handed the leaf, its `.grad` now complete); a leaf sends nothing further. A
        leaf whose requires_grad was turned off after the graph was built
        (`x.requires_grad = False`, `x.detach_()`) gets nothing, as in PyTorch. (In a backward
        pass that builds no graph, `grad` may be a numpy array: `.grad` is its first tensor.)"""
        leaf = self.variable
        if not leaf._requires_grad:
            return ()
        accumulate_into(leaf, grad, keep_graph=_grad_mode.state.enabled)
        if leaf._post_accumulate_grad_hooks:
            for hook in list(leaf._post_accumulate_grad_hooks.values()):
                result = hook(leaf)
                if result is not None:
                    check_post_accumulate_result(hook, leaf, result)
        return ()


def check_post_accumulate_result(hook: Any, leaf: Tensor, result: Any) -> None:
    """A post-accumulate-grad hook has nothing to replace: PyTorch checks what it returned as
    it checks a gradient hook's replacement, then refuses any tensor but the leaf itself."""
    checked_hook_result(hook, leaf, result)
    if result is not leaf:
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def grad_accumulator(leaf: Tensor) -> AccumulateGrad:
    """The AccumulateGrad of `leaf`: one per leaf for as long as a graph holds it (the leaf
    keeps only a weak reference, so a leaf does not keep its node alive)."""
    node = leaf._accumulator() if leaf._accumulator is not None else None
    if node is None:
        node = AccumulateGrad(leaf)
        leaf._accumulator = weakref.ref(node)
    return node


def accumulate_into(tensor: Tensor, grad: Tensor | np.ndarray, keep_graph: bool) -> None:
    """Add `grad` into `tensor.grad` with PyTorch's values and grad_fns. A leaf gets a fresh
    copy the first time (made by `copy_`, so recorded as CopyBackwards when building a graph of
    the backward), then in-place additions (out of place when building a graph). A retained
    non-leaf gets a clone (CloneBackward0), then out-of-place sums. minigrad never stores the
    incoming tensor itself (it may be a read-only broadcast view, or be changed later); PyTorch
    takes over the incoming buffer when nothing else holds it, which only `data_ptr()` shows.
    (In a backward pass that builds no graph, `grad` may be a numpy array.)"""
    is_tensor = type(grad) is Tensor
    data = grad._data if is_tensor else grad
    if tensor.grad_fn is not None:  # retain_grad(), or backward(inputs=[non_leaf])
        if tensor._grad is None:
            tensor._grad = grad.clone() if keep_graph else tensor_of(np.array(data, order="C"))
        else:
            tensor._grad = tensor._grad + grad  # recorded only when building a graph
    elif tensor._grad is None:
        tensor._grad = new = tensor_of(np.array(data, order="C"))  # (grad.detach().clone())
        if keep_graph:
            new.copy_(grad)
        elif (data.size > 1 and 0 in data.strides) or (
                is_tensor and grad._counter is not None and grad._counter.value):
            # The version PyTorch's new .grad has, which `x.grad._version` shows: it keeps the
            # incoming gradient itself, or a copy of it (0), unless gradients from several
            # paths were added into it in place first (engine.GraphTask.add_gradient, which
            # leaves it at version 1 or more), or it is a broadcast (`x.sum()`'s) that it copies
            # in with copy_ (1). (`grad._version`, without the property's call.) Measured on
            # PyTorch 2.13: tests/parity/test_grad_contract_vs_torch.py, `new_grad_versions`.
            new._bump_version()
    elif keep_graph:
        tensor._grad = tensor._grad + grad
    else:  # grad mode is off: nothing is recorded, `.grad += grad`
        total = tensor._grad
        into = total._data
        if (into.shape == data.shape and into.dtype == data.dtype and into.dtype.kind == "f"
                and 0 not in into.strides and not total._is_inference and into.flags.writeable
                and (total._counter is None or total._counter.views is None)):
            # the numpy call add_ makes under no_grad (`_inplace.update`), without a tensor
            # made of the array or the method's checks (tricks.md, `accumulate in place`)
            _run_quietly(np.add, into, data, out=into)
            total._bump_version()
        else:  # a .grad the learner set: broadcast, cast, refused as add_ does (or one that
            # shares memory with views that have a history, `x.grad = x.detach()`: add_ reads
            # them again, as PyTorch's shared version makes it)
            total.add_(grad if is_tensor else tensor_of(np.asarray(grad)))


_warned_grad_cycle = False


def warn_grad_cycle() -> None:
    """PyTorch warns, once per process, at a backward(create_graph=True) (not autograd.grad):
    a .grad with a graph and its parameter would keep each other alive."""
    global _warned_grad_cycle
    if not _warned_grad_cycle:
        _warned_grad_cycle = True
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.", UserWarning, stacklevel=2)
