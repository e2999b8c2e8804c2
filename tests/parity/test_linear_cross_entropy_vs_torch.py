"""nn.LinearCrossEntropyLoss and nn.functional.linear_cross_entropy (new in PyTorch 2.13) against
PyTorch, on its reference path (options=None): the module's printing and parameters from a seed,
the loss and its gradients (to float32 rounding: the products are MKL's, the softmax sums
cancel), grad_fn names, class indices and probabilities, a K-dimensional loss, unbatched input,
weights, ignore_index, label_smoothing, reductions, and every error in PyTorch's words."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from harness.parity import WithArrays, assert_same_as_torch

X = [[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0], [-2.0, 0.75, 0.0, -0.25]]


def _module_case(make: Callable[[Any], Any], target: Callable[[Any], Any],
                 x: Any = X) -> Callable[[Any], Any]:
    def case(lib: Any) -> Any:
        lib.manual_seed(0)
        loss_fn = make(lib)
        inputs = lib.tensor(x, requires_grad=True)
        loss = loss_fn(inputs, target(lib))
        loss.sum().backward()
        grads = [inputs.grad] + [p.grad for p in loss_fn.parameters()]
        return WithArrays((repr(loss_fn), loss, loss.grad_fn.name()),
                          tuple(g.numpy() for g in grads) + (loss.detach().numpy(),))
    return case


def _functional_case(**options: Any) -> Callable[[Any], Any]:
    def case(lib: Any) -> Any:
        w = lib.tensor(np.linspace(-1, 1, 12).reshape(3, 4), dtype=lib.float32, requires_grad=True)
        b = lib.tensor([0.1, -0.2, 0.3], requires_grad=True)
        x = lib.tensor(X, requires_grad=True)
        loss = lib.nn.functional.linear_cross_entropy(x, w, lib.tensor([2, 0, 1]), linear_bias=b,
                                                      **options)
        loss.sum().backward()
        return WithArrays(loss, (loss.detach().numpy(), x.grad.numpy(), w.grad.numpy(),
                                 b.grad.numpy()))
    return case


CASES = {
    "module, class indices": _module_case(
        lambda lib: lib.nn.LinearCrossEntropyLoss(4, 3), lambda lib: lib.tensor([2, 0, 1])),
    "module with bias, sum": _module_case(
        lambda lib: lib.nn.LinearCrossEntropyLoss(4, 5, bias=True, reduction="sum"),
        lambda lib: lib.tensor([4, 0, 1])),
    "module, probabilities": _module_case(
        lambda lib: lib.nn.LinearCrossEntropyLoss(4, 2),
        lambda lib: lib.tensor([[0.25, 0.75], [1.0, 0.0], [0.5, 0.5]])),
    "module, K-dimensional": _module_case(
        lambda lib: lib.nn.LinearCrossEntropyLoss(4, 3, out_features=(2,), bias=True),
        lambda lib: lib.tensor([[2, 0], [1, 1], [0, 2]])),
    "module, weight, ignore_index, smoothing, none": _module_case(
        lambda lib: lib.nn.LinearCrossEntropyLoss(
            4, 3, weight=lib.tensor([0.5, 2.0, 1.0]), ignore_index=1, label_smoothing=0.2,
            reduction="none"),
        lambda lib: lib.tensor([2, 1, 0])),
    "module, unbatched": _module_case(
        lambda lib: lib.nn.LinearCrossEntropyLoss(4, 3), lambda lib: lib.tensor(1), X[0]),
    "functional with bias": _functional_case(),
    "functional, mean of none": _functional_case(reduction="none", ignore_index=0),
}


@pytest.mark.parametrize("name", CASES)
def test_linear_cross_entropy(torch: Any, name: str) -> None:
    assert_same_as_torch(CASES[name], torch, rtol=1e-5)


def _f(lib: Any) -> Any:
    return lib.nn.functional.linear_cross_entropy


ERRORS = {
    "3-d input": lambda lib: _f(lib)(lib.ones(2, 3, 4), lib.ones(3, 4), lib.tensor([0, 1])),
    "1-d weight": lambda lib: _f(lib)(lib.ones(2, 4), lib.ones(4), lib.tensor([0, 1])),
    "in_features": lambda lib: _f(lib)(lib.ones(2, 4), lib.ones(3, 5), lib.tensor([0, 1])),
    "bias shape": lambda lib: _f(lib)(lib.ones(2, 4), lib.ones(3, 4), lib.tensor([0, 1]),
                                      linear_bias=lib.ones(4)),
    "K-dimensional, unbatched": lambda lib: _f(lib)(lib.ones(4), lib.ones(3, 2, 4),
                                                    lib.tensor([0, 1])),
    "ignore_index with probabilities": lambda lib: _f(lib)(
        lib.ones(2, 4), lib.ones(3, 4), lib.ones(2, 3) / 3, ignore_index=0),
    "module weight shape": lambda lib: lib.nn.LinearCrossEntropyLoss(4, 3, weight=lib.ones(2)),
    "module label_smoothing": lambda lib: lib.nn.LinearCrossEntropyLoss(4, 3,
                                                                         label_smoothing=1.5),
    "bad reduction": lambda lib: _f(lib)(lib.ones(2, 4), lib.ones(3, 4), lib.tensor([0, 1]),
                                         reduction="all"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_linear_cross_entropy_errors(torch: Any, name: str) -> None:
    shown, _ = assert_same_as_torch(ERRORS[name], torch)
    assert "Error" in shown
