"""minigrad.autograd.functional.jacobian: the whole matrix of partial derivatives, built as
PyTorch builds it by default: one backward pass per output entry, each giving one row."""
from __future__ import annotations

from typing import Any, Callable

from .. import _grad_mode
from ..creation import zeros_like
from ..ops.shape import stack
from ..tensor import Tensor
from . import grad  # (this package's __init__ imports this module last, once grad exists)

__all__ = ["jacobian"]


def _as_tensors(value: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    """(was it a tuple?, the tensors), with PyTorch's error for anything else."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                                f"tuple of Tensors but the value at index {i} has type "
                                f"{type(item)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the given {arg_name} has type {type(item)}.")
    return is_tuple, items


def jacobian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """d func(inputs) / d inputs. For one input and one output, a tensor of shape
    output.shape + input.shape; a tuple of inputs gives a tuple per output, and a tuple of
    outputs a tuple of those. Outputs that do not depend on an input give zeros there."""
    if create_graph or strict or vectorize or strategy != "reverse-mode":
        raise NotImplementedError("minigrad is a subset of PyTorch: jacobian supports only its "
                                  "defaults (create_graph=False, strict=False, vectorize=False, "
                                  "strategy='reverse-mode')")
    inputs_tuple, inputs = _as_tensors(inputs, "inputs", "jacobian")
    with _grad_mode.enable_grad():
        inputs = tuple(t.detach().requires_grad_(True) for t in inputs)
        outputs_tuple, outputs = _as_tensors(
            func(*inputs), "outputs of the user-provided function", "jacobian")
        result = []
        for out in outputs:
            rows: list[list] = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(out.numel()):
                entry = flat[j]
                row = grad(entry, inputs, retain_graph=True, allow_unused=True) \
                    if entry.requires_grad else (None,) * len(inputs)
                for k, (g, t) in enumerate(zip(row, inputs)):
                    rows[k].append(zeros_like(t) if g is None else g)
            result.append(tuple(stack(r).view(out.shape + t.shape).detach()
                                for r, t in zip(rows, inputs)))
    if not inputs_tuple:
        result = [r[0] for r in result]
    return tuple(result) if outputs_tuple else result[0]
