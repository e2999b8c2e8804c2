"""Calling one node of the backward pass, in PyTorch's order: the hooks on the tensors it made,
its own pre-hooks, its backward (`node.apply`), a check of what that returns, its post-hooks.
`engine.GraphTask` strings these together; each step is skipped at the cost of one `if` when
the node has nothing for it."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _grad_mode
from .._dtype import from_numpy
from ..creation import zeros
from ..tensor import Tensor, tensor_of
from .accumulate import accumulate_into
from .function import _run_quietly
from .gradient_ops import sum_to, summed_to
from .hook_results import checked_hook_result, checked_hook_results
from .graph import Node, output_ref


def call_tensor_hooks(node: Node, grads: list) -> list:
    """Per output of `node`: the hooks registered on the tensor it made (a leaf's, for an
    AccumulateGrad), which may replace the gradient, then retain_grad()'s copy into `.grad`."""
    for output_nr, grad in enumerate(grads):
        if grad is None:
            continue
        hooks = node._tensor_hooks.get(output_nr, {}) if node._tensor_hooks else {}
        for hook in list(hooks.values()):
            result = hook(grad)
            if result is not None:
                grad = checked_hook_result(hook, grad, result)
        retained = node._retained.get(output_nr) if node._retained else None
        tensor = retained() if retained is not None else None
        if tensor is not None:
            accumulate_into(tensor, grad, keep_graph=_grad_mode.state.enabled)
        grads[output_nr] = grad
    return grads


def call_pre_hooks(node: Node, grads: list) -> list:
    for hook in list(node._pre_hooks.values()):
        result = hook(tuple(grads))
        if result is not None:
            grads = list(checked_hook_results(hook, tuple(grads), result))
    return grads


def call_post_hooks(node: Node, grad_inputs: tuple, grad_outputs: list) -> tuple:
    # A hook sees None for the inputs that take no gradient, as in PyTorch.
    grad_inputs = tuple(None if child is None else g
                        for g, (child, _) in zip(grad_inputs, node.next_functions))
    for hook in list(node._post_hooks.values()):
        result = hook(grad_inputs, tuple(grad_outputs))
        if result is not None:
            grad_inputs = checked_hook_results(hook, grad_inputs, result)
    return grad_inputs


def materialize(node: Node, grads: list) -> list:
    """An output that received no gradient gets zeros, unless the Function opted out
    (`ctx.set_materialize_grads(False)`). Only nodes with several outputs have such outputs."""
    if all(g is not None for g in grads) or not getattr(node, "_materialize_grads", True):
        return grads
    return [_zeros_like_output(node, output_nr) if g is None else g
            for output_nr, g in enumerate(grads)]


def _zeros_like_output(node: Node, output_nr: int) -> Any:
    ref = output_ref(node, output_nr)
    out = ref() if ref is not None else None
    if out is not None:
        return zeros(out.shape, dtype=out.dtype)
    meta = node._output_meta  # the output itself is gone: its shape is kept
    if meta is None or meta[output_nr] is None:
        return None
    shape, dtype = meta[output_nr]
    return tensor_of(np.zeros(shape, dtype=dtype))


def validate(node: Node, grad_inputs: tuple) -> tuple:
    """Each gradient as its input is: the one place where broadcasting is undone (summed back
    to the input's shape, as PyTorch's engine does), and cast to the input's dtype."""
    for g, (shape, dtype) in zip(grad_inputs, node._input_meta):
        if g is not None:
            data = g._data if type(g) is Tensor else g  # (a numpy array, in a pass on arrays)
            if data.shape != shape or data.dtype != dtype:
                return fitted_to_inputs(node, grad_inputs)
    return grad_inputs  # as they mostly are


def fitted_to_inputs(node: Node, grad_inputs: tuple) -> tuple:
    """`validate`'s work once a gradient differs from its input in shape or dtype: summed back
    to the input's shape (a broadcast input's), or cast. Building a graph of the backward,
    with operations of it; otherwise numpy's sum and cast alone (`arrays_fitted`), quietly."""
    if _grad_mode.state.enabled:
        return tuple([_fitted_to_input(node, i, g) for i, g in enumerate(grad_inputs)])
    return _run_quietly(arrays_fitted, node, grad_inputs)


def _fitted_to_input(node: Node, i: int, grad: Any) -> Any:
    if grad is None or node._next_functions[i][0] is None:
        return None
    shape, dtype = node._input_meta[i]
    if grad._data.shape != shape:
        _check_expandable(node, i, grad._data.shape, shape)
        grad = sum_to(grad, shape)  # SumBackward1
    return grad if grad._data.dtype == dtype else grad.to(from_numpy(dtype))


def arrays_fitted(node: Node, grad_inputs: tuple) -> tuple:
    """`fitted_to_inputs` in a pass that builds no graph, with numpy already quiet (the plain
    pass calls it so, engine.GraphTask.run_node): numpy's sum and cast alone, without an
    operation's bookkeeping. A gradient that fits goes on as it came (a tensor keeps its
    version); one that came as a tensor stays a tensor."""
    fitted = []
    for i, (grad, (child, _)) in enumerate(zip(grad_inputs, node._next_functions)):
        if grad is None or child is None:
            fitted.append(None)
            continue
        shape, dtype = node._input_meta[i]
        is_tensor = type(grad) is Tensor
        data = grad._data if is_tensor else grad
        if data.shape == shape and data.dtype == dtype:
            fitted.append(grad)
            continue
        if data.shape != shape:
            # (a gradient with leading dimensions added, a bias's, is expandable for sure)
            if data.shape[data.ndim - len(shape):] != shape:
                _check_expandable(node, i, data.shape, shape)
            data = summed_to(data, shape)
        if data.dtype != dtype:
            data = data.astype(dtype)
        fitted.append(tensor_of(data) if is_tensor else data)
    return tuple(fitted)


def _check_expandable(node: Node, i: int, got: tuple, shape: tuple) -> None:
    if not _expandable(shape, got):
        raise RuntimeError(
            f"Function {node.name()} returned an invalid gradient at index {i} - got "
            f"[{', '.join(map(str, got))}] but expected shape compatible with "
            f"[{', '.join(map(str, shape))}]")


def _expandable(shape: tuple, target: tuple) -> bool:
    if len(shape) > len(target):
        return False
    for s, t in zip(reversed(shape), reversed(target)):
        if s != 1 and s != t:
            return False
    return True
