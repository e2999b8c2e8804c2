"""The nodes PyTorch 2.13 records for products of vectors, matrices and batches: nn.Linear on
a 1-D input and a vector @ matrix end in an in-place squeeze (SqueezeBackward4), a vector and
a batch fold into one matrix-vector product. Where torch is importable it is asked directly."""
from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import minigrad as mg


@pytest.fixture(autouse=True)
def _leave_the_random_state_alone() -> Any:
    """The layers made here draw weights; the tests that run after these on the same worker
    (some compare with PyTorch to 1e-6) see the same random numbers as without this file."""
    state = mg.get_rng_state()
    torch = sys.modules.get("torch")  # only where a test of this worker imported it
    torch_state = torch.get_rng_state() if torch is not None else None
    yield
    mg.set_rng_state(state)
    if torch_state is not None:
        torch.set_rng_state(torch_state)


def _linear_chain(lib: Any, bias: bool, input_requires_grad: bool) -> list[str]:
    """grad_fn names from the output down the first edge of each node that is not a leaf's."""
    layer = lib.nn.Linear(3, 2, bias=bias)
    node, names = layer(lib.ones(3, requires_grad=input_requires_grad)).grad_fn, []
    while node is not None:
        names.append(node.name())
        node = next((fn for fn, _ in node.next_functions
                     if fn is not None and fn.name() != "torch::autograd::AccumulateGrad"), None)
    return names


@pytest.mark.parametrize(("bias", "input_requires_grad", "chain"), [
    (False, False, ["SqueezeBackward4", "MmBackward0", "TBackward0"]),
    (False, True, ["SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0"]),
    (True, False, ["ViewBackward0", "AddmmBackward0", "TBackward0"]),
    (True, True, ["ViewBackward0", "AddmmBackward0", "ViewBackward0"]),
])
def test_linear_on_a_vector_records_torchs_nodes(bias: bool, input_requires_grad: bool,
                                                  chain: list[str]) -> None:
    assert _linear_chain(mg, bias, input_requires_grad) == chain


def test_linear_on_a_vector_without_bias_is_not_a_view() -> None:
    layer = mg.nn.Linear(3, 2, bias=False)
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = layer(x)
    assert out._version == 1  # squeeze_ counts as a change, as in PyTorch
    out.add_(1)  # an ordinary in-place change, not one through a view (CopySlices)
    assert out.grad_fn.name() == "AddBackward0"
    out.backward(mg.tensor([1.0, 2.0]))
    expected = layer.weight.detach().numpy().T @ np.array([1.0, 2.0])
    assert np.allclose(x.grad.numpy(), expected)
    assert layer.weight.grad.tolist() == [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("input_requires_grad", [False, True])
def test_linear_on_a_vector_matches_torch(bias: bool, input_requires_grad: bool,
                                          torch) -> None:
    ours, theirs = (_linear_chain(lib, bias, input_requires_grad) for lib in (mg, torch))
    assert ours == theirs



def test_vector_at_matrix_ends_in_an_in_place_squeeze() -> None:
    """PyTorch's matmul squeezes the product of a vector and a matrix in place: the result
    is version 1 of a fresh tensor (SqueezeBackward4 over MmBackward0), not a view."""
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    y = a @ mg.ones(2, 3)
    assert y.grad_fn.name() == "SqueezeBackward4"
    assert y.grad_fn.next_functions[0][0].name() == "MmBackward0"
    assert y._version == 1 and y._base is None


def _node_names(fn: Any) -> list[str]:
    """The graph under `fn`, depth first, each name indented by its depth (no recursion)."""
    names, stack = [], [(fn, 0)]
    while stack:
        node, depth = stack.pop()
        names.append("  " * depth + node.name())
        stack += [(child, depth + 1) for child, _ in reversed(node.next_functions) if child]
    return names


@pytest.mark.parametrize(("left", "right", "expected"), [
    ((3,), (2, 3, 4), ["UnsafeViewBackward0", "  MvBackward0", "    UnsafeViewBackward0",
                       "      CloneBackward0", "        TransposeBackward0",
                       "          torch::autograd::AccumulateGrad",
                       "    torch::autograd::AccumulateGrad"]),
    ((2, 4, 3), (3,), ["UnsafeViewBackward0", "  MvBackward0", "    ViewBackward0",
                       "      torch::autograd::AccumulateGrad",
                       "    torch::autograd::AccumulateGrad"]),
])
def test_a_vector_and_a_batch_multiply_as_in_pytorch(left: tuple, right: tuple,
                                                      expected: list[str]) -> None:
    """PyTorch folds the batch into the rows of one matrix-vector product (graphs recorded from
    torch 2.13); the values and gradients are those of the batched product."""
    rng = np.random.default_rng(0)
    a = mg.tensor(rng.standard_normal(left), requires_grad=True)
    b = mg.tensor(rng.standard_normal(right), requires_grad=True)
    y = a @ b
    assert _node_names(y.grad_fn) == expected
    y.sum().backward()
    expected_y = np.matmul(a.detach().numpy(), b.detach().numpy())
    np.testing.assert_allclose(y.detach().numpy(), expected_y)
    ones = np.ones_like(expected_y)
    if a.ndim == 1:
        np.testing.assert_allclose(a.grad.numpy(), np.einsum("bij,bj->i", b.detach().numpy(), ones))
        np.testing.assert_allclose(b.grad.numpy(), np.einsum("i,bj->bij", a.detach().numpy(), ones))
    else:
        np.testing.assert_allclose(a.grad.numpy(), np.einsum("bi,j->bij", ones, b.detach().numpy()))
        np.testing.assert_allclose(b.grad.numpy(), np.einsum("bij,bi->j", a.detach().numpy(), ones))
