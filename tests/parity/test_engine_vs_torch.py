"""The engine's order of work against PyTorch: which hooks run, in which order and on what, when
gradients are wanted only at some tensors (`autograd.grad`, `backward(inputs=...)`); the hooks
of a leaf's AccumulateGrad node; the `.grad` that a first `backward(create_graph=True)` leaves.
Skipped without PyTorch."""
from __future__ import annotations

import math
from typing import Any

import pytest

import minigrad as mg


def _hooked(lib: Any) -> tuple:
    """x -> a = 2x -> b = 3a -> c = sum(b * b), with a hook on a and b and a pre-hook on their
    nodes; every hook call is logged."""
    log: list = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = a * 3
    c = (b * b).sum()
    a.register_hook(lambda g: log.append(("a hook", g.tolist())) or g * 10)
    a.grad_fn.register_prehook(lambda go: log.append(("a pre-hook", go[0].tolist())))
    b.register_hook(lambda g: log.append(("b hook", g.tolist())))
    b.grad_fn.register_prehook(lambda go: log.append(("b pre-hook", go[0].tolist())))
    return x, a, b, c, log


def _passes(lib: Any) -> list:
    seen = []
    x, a, b, c, log = _hooked(lib)
    grads = lib.autograd.grad(c, [a, b], retain_graph=True)
    seen.append(([g.tolist() for g in grads], list(log)))
    log.clear()
    grads = lib.autograd.grad(c, [b], retain_graph=True)
    seen.append(([g.tolist() for g in grads], list(log)))
    log.clear()
    c.backward(inputs=[b], retain_graph=True)
    seen.append((b.grad.tolist(), x.grad, list(log)))
    log.clear()
    c.backward(inputs=[x, a], retain_graph=True)
    seen.append((x.grad.tolist(), a.grad.tolist(), list(log)))
    log.clear()
    c.backward()
    seen.append((x.grad.tolist(), list(log)))
    return seen


def test_hooks_with_inputs_run_as_in_pytorch(torch):
    mine = _passes(mg)
    assert mine == _passes(torch)
    # autograd.grad(c, [b]) needs no node below b: a's hook does not run
    assert mine[1][1] == [("b hook", [12.0, 24.0])]


def _leaf_node_hooks(lib: Any) -> list:
    log: list = []
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    node = (w * 1).grad_fn.next_functions[0][0]
    node.register_prehook(lambda grad_outputs: log.append(
        ("pre", [g.tolist() for g in grad_outputs])))
    node.register_hook(lambda grad_inputs, grad_outputs: log.append(
        ("post", list(grad_inputs), [g.tolist() for g in grad_outputs])))
    (w * 3).sum().backward()
    return log + [w.grad.tolist()]


def test_a_leafs_accumulate_grad_runs_its_pre_and_post_hooks(torch):
    assert _leaf_node_hooks(mg) == _leaf_node_hooks(torch)


def _first_grad_with_graph(lib: Any) -> tuple:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x**2).sum().backward(create_graph=True)
    first = (x.grad.tolist(), type(x.grad.grad_fn).__name__, x.grad._version)
    (x**3).sum().backward(create_graph=True)
    return first, (x.grad.tolist(), type(x.grad.grad_fn).__name__, x.grad._version)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_a_first_grad_made_with_create_graph_is_a_copy_as_in_pytorch(torch):
    assert _first_grad_with_graph(mg) == _first_grad_with_graph(torch)


# A custom backward that returns a gradient of another shape than its input's: PyTorch's engine
# sums one that broadcasting could have made (leading dimensions added, or 1s expanded) back to
# the input's shape, and refuses any other (node_call.fitted_to_inputs, arrays_fitted).
_RETURNED_SHAPES = [((2, 3), (5, 2, 3)), ((3,), (4, 3)), ((2, 1), (2, 4)), ((1, 3), (2, 2, 3)),
                    ((), (4,)), ((), (2, 3)), ((2, 3), (4, 3)), ((2, 3), (3,)), ((3,), (3, 2)),
                    ((2, 3), (2, 3, 1))]


def _returned_shapes(lib: Any, create_graph: bool) -> list:
    class Reshaped(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, shape):
            ctx.shape = shape
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            return lib.arange(1.0, 1.0 + math.prod(ctx.shape)).reshape(ctx.shape) * grad.sum(), None

    seen = []
    for input_shape, returned in _RETURNED_SHAPES:
        x = lib.ones(input_shape, requires_grad=True)
        try:
            (grad,) = lib.autograd.grad(Reshaped.apply(x, returned).sum(), [x],
                                        create_graph=create_graph)
            seen.append((tuple(grad.shape), grad.tolist()))
        except RuntimeError as error:
            seen.append(str(error))
    return seen


@pytest.mark.parametrize("create_graph", [False, True])
def test_a_gradient_of_another_shape_is_summed_back_or_refused_as_in_pytorch(torch,
                                                                             create_graph):
    mine = _returned_shapes(mg, create_graph)
    assert mine == _returned_shapes(torch, create_graph)
    assert any(isinstance(s, str) for s in mine) and any(isinstance(s, tuple) for s in mine)
