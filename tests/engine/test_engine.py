"""The backward engine: reused intermediates and diamonds, a chain of a million operations, and
properties of the `.grad` contract checked on numbers (the golden tests check printed output).
Random programs are compared with PyTorch in test_engine_parity.py."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg


def scalar(value: float) -> mg.Tensor:
    return mg.tensor(value, dtype=mg.float64, requires_grad=True)


def vector(seed: int, size: int = 5) -> mg.Tensor:
    values = np.random.default_rng(seed).uniform(-2, 2, size)
    return mg.tensor(values, requires_grad=True)


# ---- reused intermediates and diamonds: d/da, written out by hand ---------------------------

DIAMONDS = {
    "b = a + a; c = b * b": (lambda a: (lambda b: b * b)(a + a), lambda a: 8 * a),
    "b = a * a; c = b + b": (lambda a: (lambda b: b + b)(a * a), lambda a: 4 * a),
    "b = a + a; c = b + b": (lambda a: (lambda b: b + b)(a + a), lambda a: 4 + 0 * a),
    "b = a * a; c = b * b": (lambda a: (lambda b: b * b)(a * a), lambda a: 4 * a**3),
    "c = a * a * a": (lambda a: a * a * a, lambda a: 3 * a**2),
    "c = a / a": (lambda a: a / a, lambda a: 0 * a),
    "c = a ** a": (lambda a: a**a, lambda a: a**a * (np.log(a) + 1)),
    "exp and sin of one b": (lambda a: (lambda b: b.exp() * b.sin() + b.exp())(a * 2),
                             lambda a: 2 * np.exp(2 * a) * (np.sin(2 * a) + np.cos(2 * a) + 1)),
    "a used 100 times": (lambda a: sum((a * 3 for _ in range(100)), mg.tensor(0.0)),
                         lambda a: 300 + 0 * a),
    "a used at 3 depths": (lambda a: ((a * a) * a + a).tanh(),
                           lambda a: (3 * a**2 + 1) / np.cosh(a**3 + a) ** 2),
}


@pytest.mark.parametrize("name", DIAMONDS)
@pytest.mark.parametrize("value", [0.5, 1.3, 3.0])
def test_diamond_gradient(name: str, value: float) -> None:
    forward, derivative = DIAMONDS[name]
    a = scalar(value)
    forward(a).backward()
    assert a.grad.item() == pytest.approx(derivative(value), rel=1e-12, abs=1e-12)


def test_diamond_on_vectors_reaches_each_leaf_once_per_path() -> None:
    """b = a * w feeds both c = b * b and d = b.sum(); every path adds up, none is counted twice."""
    a, w = vector(0), vector(1)
    b = a * w
    b.retain_grad()
    (b * b + b.sum()).sum().backward()
    b_value = a.detach().numpy() * w.detach().numpy()
    expected_b = 2 * b_value + 5  # 5: b.sum() was added to each of the 5 elements of b * b
    np.testing.assert_allclose(b.grad.numpy(), expected_b)
    np.testing.assert_allclose(a.grad.numpy(), expected_b * w.detach().numpy())
    np.testing.assert_allclose(w.grad.numpy(), expected_b * a.detach().numpy())


def test_intermediate_reused_after_a_branch_runs_once() -> None:
    """A node shared by two branches of different depth runs after both have sent gradient."""
    calls = []
    a = scalar(2.0)
    b = a.exp()
    b.register_hook(lambda g: calls.append(g.item()))
    short, long = b * 3, ((b + 1) * 2).sin() * 5
    (short + long).backward()
    e = np.exp(2.0)
    assert calls == [pytest.approx(3 + 10 * np.cos(2 * (e + 1)))]
    assert a.grad.item() == pytest.approx(e * calls[0])


# ---- depth: no recursion anywhere --------------------------------------------------------------

# 20,000 deep is twenty times Python's recursion limit: a recursive walk fails there at once. A
# million (the depth a learner's graph may reach, 30 s here) also finds a recursion in C, in the
# freeing of the chain, which needs a deeper stack to overflow.
@pytest.mark.parametrize("n", [20_000, pytest.param(1_000_000, marks=pytest.mark.slow)])
def test_long_chain_backward(n: int) -> None:
    """y = x + x + ... + x, built as a chain n additions deep: dy/dx is exact."""
    x = scalar(1.0)
    y = x
    for _ in range(n):
        y = y + x
    y.backward()
    assert x.grad.item() == n + 1
    del y  # freeing the chain must not recurse either


def test_deep_chain_with_saved_tensors_and_create_graph() -> None:
    n = 3_000  # deeper than the default recursion limit, with a graph of the backward on top
    x = scalar(1.5)
    y = x
    for _ in range(n):
        y = y * 1.0001
    (g,) = mg.autograd.grad(y * x, x, create_graph=True)
    assert g.item() == pytest.approx(2 * 1.0001**n * 1.5, rel=1e-12)
    (h,) = mg.autograd.grad(g, x)
    assert h.item() == pytest.approx(2 * 1.0001**n, rel=1e-12)


# ---- the .grad contract, as properties --------------------------------------------------------

def test_accumulation_is_the_sum_in_any_order() -> None:
    losses = [lambda x: (x * x).sum(), lambda x: x.exp().mean(), lambda x: (x**3).sum() * 0.5]
    separate = []
    for loss in losses:
        x = vector(3)
        loss(x).backward()
        separate.append(x.grad.numpy().copy())
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        x = vector(3)
        for i in order:
            losses[i](x).backward()
        np.testing.assert_allclose(x.grad.numpy(), sum(separate), rtol=1e-12)


def test_accumulating_keeps_the_same_grad_tensor_and_zero_restarts_it() -> None:
    x = vector(4)
    (x * 2).sum().backward()
    grad = x.grad
    (x * 3).sum().backward()
    assert x.grad is grad  # added in place, as PyTorch's AccumulateGrad does
    np.testing.assert_array_equal(grad.numpy(), np.full(5, 5.0))
    x.grad.zero_()
    (x * 7).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full(5, 7.0))


def test_first_gradient_is_a_copy_of_the_one_passed_in() -> None:
    x = vector(5)
    seed = mg.ones(5, dtype=mg.float64)
    x.backward(seed)
    seed.add_(1)
    np.testing.assert_array_equal(x.grad.numpy(), np.ones(5))


def test_retain_graph_twice_doubles_and_the_graph_is_then_freed() -> None:
    x = vector(6)
    y = (x.sin() * x).sum()
    y.backward(retain_graph=True)
    once = x.grad.numpy().copy()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * once)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_autograd_grad_equals_backward_and_leaves_grad_alone() -> None:
    x, w = vector(7), vector(8)
    x.grad = mg.full((5,), 9.0, dtype=mg.float64)
    gx, gw = mg.autograd.grad(((x * w).tanh() ** 2).sum(), (x, w))
    assert x.grad.tolist() == [9.0] * 5 and w.grad is None
    x.grad = None
    ((x * w).tanh() ** 2).sum().backward()
    np.testing.assert_array_equal(gx.numpy(), x.grad.numpy())
    np.testing.assert_array_equal(gw.numpy(), w.grad.numpy())


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((), (2, 3)), ((4,), (3, 4)),
                                    ((2, 1, 3), (5, 1))])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float32", "float64"),
                                    ("float64", "float32")])
def test_grad_has_its_leafs_shape_and_dtype(shapes: tuple, dtypes: tuple) -> None:
    a, b = (mg.ones(s, dtype=getattr(mg, d), requires_grad=True) for s, d in zip(shapes, dtypes))
    (a * b * 2).sum().backward()
    for leaf in (a, b):
        assert leaf.grad.shape == leaf.shape and leaf.grad.dtype is leaf.dtype
        repeats = (a * b).numel() // leaf.numel()  # how many products each element is in
        np.testing.assert_array_equal(leaf.grad.numpy(), np.full(leaf.shape, 2.0 * repeats))


def test_backward_inputs_fills_only_those() -> None:
    x, w = vector(9), vector(10)
    h = x * w
    loss = (h * h).sum()
    loss.backward(inputs=[w, h], retain_graph=True)
    assert x.grad is None
    np.testing.assert_allclose(h.grad.numpy(), 2 * h.detach().numpy())
    np.testing.assert_allclose(w.grad.numpy(), 2 * h.detach().numpy() * x.detach().numpy())


def test_hooks_scale_everything_upstream_and_retain_grad_sees_it() -> None:
    x = vector(11)
    h = x.exp()
    h.retain_grad()
    h.register_hook(lambda g: g * 10)
    h.register_hook(lambda g: g + 1)  # runs second: (g * 10) + 1
    (h * 2).sum().backward()
    np.testing.assert_allclose(h.grad.numpy(), np.full(5, 21.0))
    np.testing.assert_allclose(x.grad.numpy(), 21 * np.exp(x.detach().numpy()))


def test_detach_and_no_grad_stop_gradients() -> None:
    x = vector(12)
    (x.detach() * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), x.detach().numpy())
    with mg.no_grad():
        y = x * x
    assert y.grad_fn is None and not y.requires_grad
    z = (y * x).sum()
    x.grad = None
    z.backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.numpy())


def test_higher_derivatives_of_a_polynomial() -> None:
    """d^k/dx^k of x^5 = 5!/(5-k)! x^(5-k), for k = 1..5."""
    x = scalar(1.7)
    out = x**5
    for k in range(1, 6):
        (out,) = mg.autograd.grad(out, x, create_graph=True)
        expected = np.prod(range(5 - k + 1, 6)) * 1.7 ** (5 - k)
        assert out.item() == pytest.approx(expected, rel=1e-12)


def test_second_derivative_through_backward_create_graph() -> None:
    x = vector(13)
    with warnings.catch_warnings():  # PyTorch's reference-cycle warning, shown once a process
        warnings.simplefilter("ignore")
        (x.sin() * x).sum().backward(create_graph=True)
    first = x.grad
    assert first.requires_grad
    x.grad = None
    first.sum().backward()
    xs = x.detach().numpy()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(xs) - xs * np.sin(xs), rtol=1e-12)


def test_max_dim_indices_get_no_gradient() -> None:
    x = mg.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    values, indices = x.max(dim=1)
    assert not indices.requires_grad and indices.dtype is mg.int64
    values.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 1, 0], [0, 0, 1]])


def test_autograd_grad_with_an_input_listed_twice() -> None:
    x = vector(14)
    first, second = mg.autograd.grad((x * x).sum(), [x, x])
    np.testing.assert_allclose(first.numpy(), 2 * x.detach().numpy())
    np.testing.assert_array_equal(first.numpy(), second.numpy())


def test_pow_at_zero_follows_pytorchs_conventions() -> None:
    """0 ** 0 is constant 1 in both arguments: gradient 0 (not 0 * 0 ** -1 = nan); likewise
    d/db a ** b at a = 0, b >= 0 is 0, not 0 * log 0."""
    a = mg.tensor([0.0, 2.0], requires_grad=True)
    b = mg.tensor([0.0, 3.0], requires_grad=True)
    (a**b).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [0.0, 12.0])
    np.testing.assert_allclose(b.grad.numpy(), [0.0, 8 * np.log(2.0)], rtol=1e-6)


def test_plain_backward_after_create_graph_accumulates_into_copies() -> None:
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    z = x.expand(3, 2)  # its gradient arrives as a read-only broadcast array
    z.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (z * z).sum().backward(create_graph=True)
    assert type(x.grad.grad_fn).__name__ == "CopyBackwards"
    assert type(z.grad.grad_fn).__name__ == "CloneBackward0"
    (z * z).sum().backward()
    np.testing.assert_array_equal(z.grad.numpy(), [[4.0, 8.0]] * 3)
    np.testing.assert_array_equal(x.grad.detach().numpy(), [12.0, 24.0])


def test_empty_dim_list_reduces_everything() -> None:
    x = vector(15)
    for total in (x.sum(dim=[]), x.mean(dim=()) * 5):
        assert total.shape == () and total.item() == pytest.approx(x.sum().item())
