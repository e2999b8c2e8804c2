"""What `AccumulateGrad` does with a gradient that reaches a leaf (and what `retain_grad()`
does on a non-leaf): the first one is copied into `.grad`, the next ones are added to it."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..ops.fill import Copy
from ..tensor import Tensor

_warned_grad_cycle = False


def warn_grad_cycle() -> None:
    """PyTorch warns, once per process, when backward(create_graph=True) stores a .grad that
    has a graph: the parameter and its gradient then keep each other alive."""
    global _warned_grad_cycle
    if not _warned_grad_cycle:
        _warned_grad_cycle = True
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.", UserWarning, stacklevel=5)


def accumulate_into(tensor: Any, grad: Any, keep_graph: bool) -> None:
    """Add `grad` into `tensor.grad` the way PyTorch does. A leaf (AccumulateGrad) gets a fresh
    copy the first time (recorded as CopyBackwards when building a graph of the backward), then
    in-place additions (out of place when building a graph). A retained non-leaf gets a clone
    (CloneBackward0), then out-of-place sums. Never the incoming tensor itself: it may be a
    read-only broadcast view, or be changed later."""
    if tensor.grad_fn is not None:  # retain_grad(), or backward(inputs=[non_leaf])
        if tensor._grad is None:
            tensor._grad = grad.clone() if keep_graph else _copy(grad)
        else:
            tensor._grad = tensor._grad + (grad if keep_graph else grad.detach())
    elif tensor._grad is None:
        if keep_graph:
            tensor._grad = Copy.apply(_copy(grad), grad)
        else:
            tensor._grad = _copy(grad)
    elif keep_graph:
        tensor._grad = tensor._grad + grad
    else:
        tensor._grad.add_(grad.detach())


def _copy(grad: Any) -> Any:
    """`grad.detach().clone()`, without the two operations' bookkeeping."""
    return Tensor(np.array(grad._data, order="C"))
