"""minigrad.autograd.functional: jacobian (the whole matrix of partial derivatives, built as
PyTorch builds it by default: one backward pass per output entry, each giving one row),
hessian (the jacobian of the gradient), and the products that need no whole matrix: vjp
(v^T J, one backward pass), jvp (J v, by PyTorch's double-backward trick), vhp and hvp (v^T H
and H v, from a gradient taken with create_graph=True)."""
from __future__ import annotations

from typing import Any, Callable

from .. import _grad_mode
from ..creation import zeros_like
from ..tensor import Tensor
from . import grad  # (this package's __init__ imports this module last, once grad exists)
from .gradient_ops import Stack

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


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
    outputs a tuple of those. Outputs that do not depend on an input give zeros there.
    vectorize=True (PyTorch's vmap over the rows) computes the same rows one by one."""
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")  # sic
    if strict or strategy != "reverse-mode":
        raise NotImplementedError("minigrad is a subset of PyTorch: jacobian supports "
                                  "strict=False and strategy='reverse-mode' (vectorize=True "
                                  "gives the same matrix, one row at a time)")
    inputs_tuple, inputs = _as_tensors(inputs, "inputs", "jacobian")
    with _grad_mode.enable_grad():
        inputs = _prepare(inputs, create_graph)
        outputs_tuple, outputs = _as_tensors(
            func(*inputs), "outputs of the user-provided function", "jacobian")
        result = []
        for out in outputs:
            rows: list[list] = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(out.numel()):
                entry = flat[j]
                row = grad(entry, inputs, retain_graph=True, allow_unused=True,
                           create_graph=create_graph) \
                    if entry.requires_grad else (None,) * len(inputs)
                for k, (g, t) in enumerate(zip(row, inputs)):
                    rows[k].append(zeros_like(t) if g is None else g)
            # the rows of an input share its shape and dtype: stacked with no checks
            result.append(tuple(
                _done(Stack.apply(0, *r).view(out.shape + t.shape), create_graph)
                for r, t in zip(rows, inputs)))
    if not inputs_tuple:
        result = [r[0] for r in result]
    return tuple(result) if outputs_tuple else result[0]


def _prepare(inputs: tuple, create_graph: bool) -> tuple:
    """Inputs to differentiate by: with create_graph, a view that keeps the caller's graph
    (so a hessian can differentiate a jacobian); otherwise a detached copy."""
    if create_graph:
        return tuple(t.view_as(t) if t.requires_grad else t.detach().requires_grad_(True)
                     for t in inputs)
    return tuple(t.detach().requires_grad_(True) for t in inputs)


def _done(t: Tensor, create_graph: bool) -> Tensor:
    return t if create_graph else t.detach()


def _vector(v: Any, like: tuple, fn_name: str, what: str) -> tuple:
    """v as a tuple of tensors shaped like `like`; None only for a single one-element `like`."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if the {what} a single Tensor "
                               "with a single element.")
        return (None,)
    _, v = _as_tensors(v, "v", fn_name)
    if len(v) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got "
                           f"{len(v)}.")
    for i, (a, b) in enumerate(zip(v, like)):
        if a.shape != b.shape:
            raise RuntimeError(f"Entry {i} in v has invalid size: should be {b.shape} but got "
                               f"{a.shape}.")
    return tuple(t.detach() for t in v)


def _grads(outputs: tuple, inputs: tuple, grad_outputs: tuple, create_graph: bool) -> tuple:
    """autograd.grad that skips outputs without history and gives zeros for unused inputs."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        found: tuple = (None,) * len(inputs)
    else:
        found = grad([o for o, _ in pairs], inputs, [g for _, g in pairs], allow_unused=True,
                     create_graph=create_graph, retain_graph=True)
    return tuple(zeros_like(t) if g is None else g for g, t in zip(found, inputs))


def _result(values: tuple, was_tuple: bool, create_graph: bool) -> Any:
    values = tuple(_done(v, create_graph) for v in values)
    return values if was_tuple else values[0]


def vjp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """(func(inputs), v^T J): one backward pass from the outputs, weighted by v."""
    with _grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tensors(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph)
        outputs_tuple, outputs = _as_tensors(
            func(*inputs), "outputs of the user-provided function", "vjp")
        v = _vector(v, outputs, "vjp", "user-provided function returns")
        products = _grads(outputs, inputs, v, create_graph)
    return (_result(outputs, outputs_tuple, create_graph),
            _result(products, inputs_tuple, create_graph))


def jvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """(func(inputs), J v) by PyTorch's double-backward trick: the backward pass is linear in
    its incoming gradient u, so differentiating u^T J by u, weighted by v, gives J v."""
    with _grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tensors(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph)
        v = _vector(v, inputs, "jvp", "input to the user-provided function is")
        outputs_tuple, outputs = _as_tensors(
            func(*inputs), "outputs of the user-provided function", "jvp")
        u = tuple(zeros_like(out).requires_grad_(True) for out in outputs)
        u_jacobian = _grads(outputs, inputs, u, create_graph=True)
        products = _grads(u_jacobian, u, v, create_graph)
    return (_result(outputs, outputs_tuple, create_graph),
            _result(products, outputs_tuple, create_graph))


def hessian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The matrix of second derivatives of a function with one single-element output: the
    jacobian of its gradient."""
    inputs_tuple, inputs = _as_tensors(inputs, "inputs", "hessian")

    def single_output(*args: Tensor) -> Tensor:
        out = func(*args)
        if not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def gradient(*args: Tensor) -> Any:
        return jacobian(single_output, args, create_graph=True)

    result = jacobian(gradient, inputs, create_graph=create_graph)
    if not inputs_tuple:
        return result[0][0]
    return result


def vhp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """(func(inputs), v^T H): the gradient, taken with create_graph=True, differentiated
    once more with v as its weights."""
    with _grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tensors(inputs, "inputs", "vhp")
        inputs = _prepare(inputs, create_graph)
        v = _vector(v, inputs, "vhp", "input to the user-provided function is")
        outputs = _single_output(func(*inputs), "vhp")
        gradient = _grads(outputs, inputs, (None,), create_graph=True)
        products = _grads(gradient, inputs, v, create_graph)
    return _result(outputs, False, create_graph), _result(products, inputs_tuple, create_graph)


def hvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """(func(inputs), H v), by PyTorch's double-backward trick on the gradient."""
    with _grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tensors(inputs, "inputs", "hvp")
        inputs = _prepare(inputs, create_graph)
        v = _vector(v, inputs, "hvp", "input to the user-provided function is")
        outputs = _single_output(func(*inputs), "hvp")
        gradient = _grads(outputs, inputs, (None,), create_graph=True)
        u = tuple(zeros_like(t).requires_grad_(True) for t in inputs)
        double_back = _grads(gradient, inputs, u, create_graph=True)
        products = _grads(double_back, u, v, create_graph)
    return _result(outputs, False, create_graph), _result(products, inputs_tuple, create_graph)


def _single_output(out: Any, fn_name: str) -> tuple:
    if not isinstance(out, Tensor):
        raise RuntimeError(f"The function given to {fn_name.replace('vhp', 'hvp')} should "
                           "return a single Tensor")
    if out.numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to "
                           f"{fn_name.replace('vhp', 'hvp')} should contain a single element")
    return (out,)
