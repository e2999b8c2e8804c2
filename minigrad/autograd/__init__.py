"""minigrad.autograd: what torch.autograd offers: backward, grad, Function, gradcheck, anomaly
detection. The backward pass itself, and `backward()` that starts it, are engine.py's."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _grad_mode
from .._subset import module_getattr
from ..creation import zeros_like
from ..tensor import Tensor
from .anomaly import detect_anomaly, set_detect_anomaly
from .engine import _as_tuple, _check_outputs, _make_grads, backward, run_backward
from .function import Function, FunctionCtx
from .gradient_ops import Stack
from . import graph
from .graph import Node
from .multi_grad_hook import register_multi_grad_hook

# torch.autograd.graph.register_multi_grad_hook asks the running backward pass which nodes it
# runs: it needs the engine, which needs graph.py, so it is given to that module from here.
graph.register_multi_grad_hook = register_multi_grad_hook

__all__ = ["backward", "grad", "Function", "FunctionCtx", "Node", "Variable", "gradcheck",
           "gradgradcheck", "functional", "profiler",
           "detect_anomaly", "set_detect_anomaly"]


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple:
    """The gradients of `outputs` with respect to `inputs`, returned as a tuple; no `.grad`
    is touched. With is_grads_batched, grad_outputs has a batch dimension in front: one
    backward pass per entry, the results stacked (PyTorch runs them as one batched pass)."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads="
                         "True, but got: allow_unused=False.")
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)  # once: they may be generators
    if is_grads_batched:
        return _batched_grad(outputs, inputs, _as_tuple(grad_outputs), retain_graph,
                             create_graph, allow_unused, materialize_grads)
    if not inputs:  # checked next, then in backward()'s order
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _as_tuple(grad_outputs) or (None,) * len(outputs)
    start = _make_grads(outputs, grads)
    _check_outputs(outputs, start)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    result = run_backward(outputs, start,
                          retain_graph=create_graph if retain_graph is None else retain_graph,
                          create_graph=create_graph, inputs=inputs, accumulate=False)
    out = []
    detached: dict[int, Tensor] = {}  # a tensor given twice in `inputs` gets one gradient twice
    for i, (t, g) in enumerate(zip(inputs, result)):
        if g is None:
            if materialize_grads:
                g = zeros_like(t, requires_grad=create_graph)
            elif not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have "
                                   "been used in the graph. Set allow_unused=True if this is the "
                                   "desired behavior.")
        elif not create_graph:
            if id(g) not in detached:
                detached[id(g)] = g.detach()
            g = detached[id(g)]
        out.append(g)
    return tuple(out)


def _batched_grad(outputs: Any, inputs: Any, grad_outputs: tuple, retain_graph: bool | None,
                  create_graph: bool, allow_unused: bool | None, materialize_grads: bool
                  ) -> tuple:
    if not grad_outputs or any(g is None for g in grad_outputs):
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    count = grad_outputs[0].shape[0]
    keep = create_graph if retain_graph is None else retain_graph
    rows = [grad(outputs, inputs, tuple(g[b] for g in grad_outputs),
                 retain_graph=keep or b < count - 1, create_graph=create_graph,
                 allow_unused=allow_unused, materialize_grads=materialize_grads)
            for b in range(count)]
    return tuple(None if rows[0][i] is None else Stack.apply(0, *[row[i] for row in rows])
                 for i in range(len(rows[0])))


no_grad = _grad_mode.no_grad
enable_grad = _grad_mode.enable_grad
set_grad_enabled = _grad_mode.set_grad_enabled


from . import functional  # noqa: E402, F401 - these two use grad(), defined above
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402
from . import profiler  # noqa: E402, F401


def __getattr__(name: str) -> Any:
    """A name minigrad leaves out gets one line that says so (see _subset.py)."""
    return module_getattr("torch.autograd", __name__)(name)
