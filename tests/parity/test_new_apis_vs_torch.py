"""The APIs issue 11 found missing, against real PyTorch: `t.norm()`, `torch.norm`,
`torch.linalg.norm`/`vector_norm`, `torch.autograd.functional.jacobian`, `nn.LeakyReLU` /
`F.leaky_relu` and `Module.register_full_backward_hook` give the same values, gradients,
grad_fn names, printed text and error messages. Skipped without PyTorch."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import minigrad as mg

DATA = np.array([[1.5, -2.0, 0.5], [0.0, 0.0, 0.0], [3.0, 3.0, -1.0]])  # a zero row: the kink
INF = math.inf
NORMS = {
    "t.norm()": lambda lib, x: x.norm(),
    "t.norm(2, dim=1)": lambda lib, x: x.norm(2, dim=1),
    "t.norm(dim=0, keepdim)": lambda lib, x: x.norm(dim=0, keepdim=True),
    "t.norm(p=1)": lambda lib, x: x.norm(p=1),
    "torch.norm(x, 3, dim=1)": lambda lib, x: lib.norm(x, 3, dim=1),
    "torch.norm(x, 1.5, dim=-1)": lambda lib, x: lib.norm(x, 1.5, dim=-1),
    "torch.norm(x, 0.5, dim=0)": lambda lib, x: lib.norm(x[0], 0.5),
    "torch.norm(x, inf, dim=1)": lambda lib, x: lib.norm(x, INF, dim=1),
    "torch.norm(x, 0)": lambda lib, x: lib.norm(x, 0),
    "torch.norm(x, dim=(0, 1))": lambda lib, x: lib.norm(x, dim=(0, 1)),
    "linalg.norm(x)": lambda lib, x: lib.linalg.norm(x),
    "linalg.norm(x, 'fro')": lambda lib, x: lib.linalg.norm(x, "fro"),
    "linalg.norm(x, dim=1)": lambda lib, x: lib.linalg.norm(x, dim=1),
    "linalg.norm(row, ord=1)": lambda lib, x: lib.linalg.norm(x[2], ord=1),
    "linalg.norm(row, -inf)": lambda lib, x: lib.linalg.norm(x[0], -INF),
    "linalg.norm(x.reshape(-1))": lambda lib, x: lib.linalg.norm(x.reshape(-1)),
    "linalg.norm(0-d)": lambda lib, x: lib.linalg.norm(x[0, 1]),
    "vector_norm(x)": lambda lib, x: lib.linalg.vector_norm(x),
    "vector_norm(x, 4, dim=1, keepdim)": lambda lib, x: lib.linalg.vector_norm(x, 4, 1, True),
}


def _names(fn) -> list:
    return [type(n).__name__ if n is not None else None for n, _ in fn.next_functions]


@pytest.mark.parametrize("name", NORMS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_norm_values_gradients_and_printing(torch, name, dtype):
    weights = np.random.default_rng(1).uniform(0.5, 1.5, 9).reshape(3, 3)
    seen = []
    for lib in (mg, torch):
        x = lib.tensor(DATA, dtype=getattr(lib, dtype), requires_grad=True)
        out = NORMS[name](lib, x)
        w = lib.tensor(weights, dtype=getattr(lib, dtype)).reshape(-1)[:out.numel()]
        (out * w.reshape(out.shape)).sum().backward()
        grad = None if x.grad is None else x.grad.numpy()  # the 0-"norm" has no gradient
        seen.append((repr(out), out.grad_fn.name(), _names(out.grad_fn), grad))
    ours, theirs = seen
    assert ours[:3] == theirs[:3]
    assert (ours[3] is None) == (theirs[3] is None)
    if ours[3] is not None:
        np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6, atol=1e-7)  # nan nowhere


def test_norm_gradient_at_zero_is_zero_not_nan(torch):
    for lib in (mg, torch):
        z = lib.zeros(2, 3, requires_grad=True)
        z.norm().backward()
        assert z.grad.tolist() == [[0.0] * 3] * 2


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_norm_second_derivative_matches(torch, dtype):
    grads = []
    for lib in (mg, torch):
        x = lib.tensor(DATA[[0, 2]], dtype=getattr(lib, dtype), requires_grad=True)
        (g,) = lib.autograd.grad(x.norm(dim=1).sum(), x, create_graph=True)
        (g * lib.tensor(DATA[[2, 0]], dtype=x.dtype)).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(*grads, rtol=1e-5, atol=1e-6)


NORM_ERRORS = {
    "integer input": lambda lib: lib.tensor([3, 4]).norm(),
    "bool input": lambda lib: lib.linalg.vector_norm(lib.tensor([True])),
    "dim out of range": lambda lib: lib.linalg.vector_norm(lib.ones(2, 2), dim=2),
    "ord string to vector_norm": lambda lib: lib.linalg.vector_norm(lib.ones(2), ord="fro"),
    "-1 norm of nothing": lambda lib: lib.linalg.vector_norm(lib.ones(0), -1),
    "'fro' on a vector": lambda lib: lib.linalg.norm(lib.ones(2), "fro"),
    "'fro' with one dim": lambda lib: lib.linalg.norm(lib.ones(2, 2), "fro", dim=0),
    "ord on 3-D": lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), 2),
    "three dims": lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), dim=(0, 1, 2)),
}


@pytest.mark.parametrize("name", NORM_ERRORS)
def test_norm_errors_match(torch, name):
    errors = []
    for lib in (mg, torch):
        with pytest.raises(Exception) as info:  # noqa: PT011 - the type is compared below
            NORM_ERRORS[name](lib)
        errors.append((type(info.value).__name__, str(info.value).split("\n")[0]))
    assert errors[0] == errors[1]


def test_matrix_norms_are_marked_pytorch_only():
    for call in (lambda: mg.linalg.norm(mg.ones(2, 2), 2), lambda: mg.ones(2, 2).norm("nuc")):
        with pytest.raises(NotImplementedError, match="minigrad is a subset of PyTorch"):
            call()


X = np.array([0.5, -1.0, 2.0])
Y = np.array([[1.0, 2.0], [-0.5, 3.0]])
JACOBIANS = {
    "one input": (lambda lib, x, y=None: x ** 2 * x.sin(), "x"),
    "scalar output": (lambda lib, x, y=None: (x * x).sum(), "x"),
    "tuple of inputs": (lambda lib, x, y: x[:2] * y[0] + y[1].exp(), "xy"),
    "tuple of outputs": (lambda lib, x, y: (x * 2, (x * y[0, :1]).sum()), "xy"),
    "unused input": (lambda lib, x, y: x.tanh(), "xy"),
    "constant output": (lambda lib, x, y=None: lib.ones(2), "x"),
    "through a norm": (lambda lib, x, y=None: x / x.norm(), "x"),
}


def _flatten(result) -> list:
    """The tensors of a (nested) jacobian result, with the tuple structure as a string."""
    if isinstance(result, tuple):
        parts = [_flatten(r) for r in result]
        return [("(", len(result))] + [p for part in parts for p in part]
    return [(tuple(result.shape), result.requires_grad, result.grad_fn, result.numpy())]


@pytest.mark.parametrize("vectorize", [False, True])
@pytest.mark.parametrize("name", JACOBIANS)
def test_jacobian_matches(torch, name, vectorize):
    fn, which = JACOBIANS[name]
    seen = []
    for lib in (mg, torch):
        x, y = lib.tensor(X, requires_grad=True), lib.tensor(Y)
        inputs = x if which == "x" else (x, y)
        result = lib.autograd.functional.jacobian(lambda *a: fn(lib, *a), inputs,
                                                  vectorize=vectorize)
        seen.append(_flatten(result))
        assert x.grad is None  # the inputs are detached: nothing reaches the caller's leaves
    ours, theirs = seen
    assert [item[:3] for item in ours] == [item[:3] for item in theirs]
    for a, b in zip(ours, theirs):
        if len(a) == 4:
            np.testing.assert_allclose(a[3], b[3], rtol=1e-6)


def test_hessian_vectorized_matches(torch):
    seen = [lib.autograd.functional.hessian(lambda t: (t ** 3 * t.sin()).sum(),
                                            lib.tensor(X), vectorize=True).numpy()
            for lib in (mg, torch)]
    np.testing.assert_allclose(seen[0], seen[1], rtol=1e-12)


@pytest.mark.parametrize("create_graph", [False, True])
def test_grad_with_batched_grad_outputs_matches(torch, create_graph):
    """is_grads_batched: each row of grad_outputs is one vector-Jacobian product."""
    seen = []
    for lib in (mg, torch):
        x = lib.tensor(X, requires_grad=True)
        y = x ** 3
        (rows,) = lib.autograd.grad(y, x, lib.eye(3, dtype=lib.float64) * 2,
                                    is_grads_batched=True, create_graph=create_graph)
        second = lib.autograd.grad(rows.sum(), x)[0].tolist() if create_graph else None
        seen.append((rows.detach().tolist(), rows.requires_grad, second))
    assert seen[0] == seen[1]


JACOBIAN_ERRORS = {
    "a list of inputs": lambda lib: lib.autograd.functional.jacobian(lambda a: a, [lib.ones(2)]),
    "a number in the inputs": lambda lib: lib.autograd.functional.jacobian(
        lambda a, b: a, (lib.ones(2), 3)),
    "a number as output": lambda lib: lib.autograd.functional.jacobian(lambda a: 2.0,
                                                                       lib.ones(2)),
    "a number among outputs": lambda lib: lib.autograd.functional.jacobian(
        lambda a: (a, 3), lib.ones(2)),
}


@pytest.mark.parametrize("name", JACOBIAN_ERRORS)
def test_jacobian_errors_match(torch, name):
    errors = []
    for lib in (mg, torch):
        with pytest.raises(TypeError) as info:
            JACOBIAN_ERRORS[name](lib)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_jacobian_options_beyond_the_defaults_are_refused(torch):
    with pytest.raises(NotImplementedError, match="minigrad is a subset of PyTorch"):
        mg.autograd.functional.jacobian(lambda a: a, mg.ones(2), strict=True)
    errors = []
    for lib in (mg, torch):  # forward mode without vectorize: PyTorch's own refusal
        with pytest.raises(NotImplementedError) as info:
            lib.autograd.functional.jacobian(lambda a: a, lib.ones(2), strategy="forward-mode")
        errors.append(str(info.value))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("slope", [0.01, 0.2, 1, -0.5])
def test_leaky_relu_matches(torch, slope):
    seen = []
    for lib in (mg, torch):
        x = lib.tensor([-2.0, -0.0, 0.0, 0.5, 3.0], requires_grad=True)
        out = lib.nn.functional.leaky_relu(x, slope) if slope != 0.01 \
            else lib.nn.LeakyReLU()(x)
        (g,) = lib.autograd.grad((out * lib.tensor([1.0, -2.0, 3.0, 0.5, 1.5])).sum(), x,
                                 create_graph=True)
        (g * g).sum().backward()
        seen.append((repr(out), repr(g), out.grad_fn.name(), g.grad_fn.name(), repr(x.grad)))
    assert seen[0] == seen[1]


def test_leaky_relu_module_printing_and_errors(torch):
    def text(lib):
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.LeakyReLU(0.2),
                                  lib.nn.LeakyReLU(inplace=True), lib.nn.LeakyReLU(1))
        with pytest.raises(NotImplementedError) as info:
            lib.nn.functional.leaky_relu(lib.tensor([-1, 2]))
        return repr(model), str(info.value)
    assert text(mg) == text(torch)


def _hook_run(lib, x_requires_grad=True, replace=False, remove=False):
    """A small model with a full backward hook on each layer; what the hooks saw, and x.grad."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.LeakyReLU(0.1), lib.nn.Linear(4, 2))
    with lib.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(lib.tensor(np.sin(np.arange(p.numel()) + i).reshape(p.shape), dtype=p.dtype))
    calls = []

    def hook(module, grad_input, grad_output):
        calls.append((type(module).__name__, [None if g is None else g.numpy().round(5).tolist()
                                             for g in grad_input],
                      [g.numpy().round(5).tolist() for g in grad_output]))
        if replace and isinstance(module, lib.nn.LeakyReLU):
            return (grad_input[0] * 10,)
        return None
    handles = [m.register_full_backward_hook(hook) for m in model]
    if remove:
        handles[1].remove()
    x = lib.tensor([[1.0, -2.0, 0.5], [0.3, 0.0, -1.0]], requires_grad=x_requires_grad)
    out = model(x)
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        (out * lib.tensor([[1.0, -1.0], [2.0, 0.5]])).sum().backward()
    calls.append([(str(w.message), w.filename, w.lineno) for w in warned])  # the backward line
    grads = [p.grad.numpy().round(5).tolist() for p in model.parameters()]
    x_grad = None if x.grad is None else x.grad.numpy().round(5).tolist()
    return repr(out.grad_fn.name()), calls, grads, x_grad


@pytest.mark.parametrize("case", [{}, {"x_requires_grad": False}, {"replace": True},
                                  {"remove": True}], ids=str)
def test_full_backward_hook_matches(torch, case):
    assert _hook_run(mg, **case) == _hook_run(torch, **case)


def test_full_backward_hook_errors_match(torch):
    def error(lib, requires_grad):
        layer = lib.nn.Linear(2, 2)
        layer.register_full_backward_hook(lambda m, gi, go: (lib.ones(1, 2), lib.ones(1, 2)))
        with pytest.raises(RuntimeError) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (compared in test_full_backward_hook_matches)
            layer(lib.ones(1, 2, requires_grad=requires_grad)).sum().backward()
        return str(info.value)
    for requires_grad in (True, False):
        assert error(mg, requires_grad) == error(torch, requires_grad)


def test_gradcheck_warns_on_float32_inputs_as_pytorch_does(torch):
    """Lesson 12 says gradcheck wants float64: the warning names the input and says so."""
    def messages(lib):
        inputs = (lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True),
                  lib.tensor([0.5, 1.5], requires_grad=True))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.autograd.gradcheck(lambda a, b: a * b, inputs, raise_exception=False)
        return [str(w.message) for w in caught]

    assert messages(mg) == messages(torch)
    assert messages(mg) and "Input #1" in messages(mg)[0]


def test_gradcheck_takes_fast_mode_false_and_refuses_fast_mode_true(torch):
    """The conv-bn tutorial asks for `fast_mode=False` (the full check, the default) by name;
    fast mode's random projections are not minigrad's: asked for, a clear refusal, never
    another check under its name."""
    def verdict(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(lambda t: (t * t).sum(1), (x,), fast_mode=False)

    assert verdict(mg) is verdict(torch) is True
    x = mg.tensor([1.0], dtype=mg.float64, requires_grad=True)
    with pytest.raises(NotImplementedError, match="fast_mode=True"):
        mg.autograd.gradcheck(lambda t: t * 2, (x,), fast_mode=True)


REDUCTIONS = {"sum(1)": lambda x: x.sum(1), "sum((0, 2))": lambda x: x.sum((0, 2)),
              "std(1)": lambda x: x.std(1), "norm(dim=1)": lambda x: x.norm(dim=1),
              "logsumexp(2)": lambda x: x.logsumexp(2), "prod(1)": lambda x: x.prod(1),
              "var((0, 1))": lambda x: x.var((0, 1))}


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduced_dims_come_back_by_unsqueeze_as_in_pytorch(torch, name):
    """A reduction's backward gives the gradient its dimensions back one unsqueeze at a time,
    so a gradient taken through it with create_graph=True ends in SqueezeBackward1, as
    torch.autograd.functional.jvp's result does (the documentation's example)."""
    names = []
    for lib in (mg, torch):
        x = lib.tensor(np.random.default_rng(0).uniform(0.5, 1.5, (2, 3, 4)), requires_grad=True)
        y = REDUCTIONS[name](x)
        v = lib.ones_like(y, requires_grad=True)
        (g,) = lib.autograd.grad(y, x, v, create_graph=True)
        (h,) = lib.autograd.grad((g * x).sum(), v, create_graph=True)
        names.append((h.grad_fn.name(), h.shape))
    jvp = [lib.autograd.functional.jvp(lambda x: x.exp().sum(dim=1), lib.ones(2, 2),
                                       lib.ones(2, 2), create_graph=True)[1].grad_fn.name()
           for lib in (mg, torch)]
    assert names[0] == names[1] and jvp[0] == jvp[1]


def _graph_names(t) -> list[str]:
    """The names of the nodes of `t`'s graph, breadth first: a graph's shape, as text."""
    names, queue = [], [t.grad_fn]
    while queue:
        node = queue.pop(0)
        if node is not None:
            names.append(node.name())
            queue.extend(child for child, _ in node.next_functions)
    return names


GRAPHS_OF_BACKWARD = {
    "sum()": lambda x: x.sum(), "sum(0)": lambda x: x.sum(0), "mean()": lambda x: x.mean(),
    "mean(0)": lambda x: x.mean(0), "mean(all dims)": lambda x: x.mean(tuple(range(x.ndim))),
    "var(0)": lambda x: x.var(0), "max()": lambda x: x.max(), "max(0)": lambda x: x.max(0)[0],
    "min(0)": lambda x: x.min(0).values, "median()": lambda x: x.median(),
    "median(0)": lambda x: x.median(0).values, "amax()": lambda x: x.amax(),
    "amax(0)": lambda x: x.amax(0), "amin(-1)": lambda x: x.amin(-1),
    "cumsum(0)": lambda x: x.cumsum(0), "logsumexp(0)": lambda x: x.logsumexp(0)}


@pytest.mark.parametrize("shape", [(3,), (2, 3)])
@pytest.mark.parametrize("name", GRAPHS_OF_BACKWARD)
def test_a_reduction_s_backward_records_pytorch_s_operations(torch, name, shape):
    """A gradient taken with create_graph=True is made of the operations PyTorch's formula
    uses: mean divides by a number (DivBackward1), max(dim) scatters into zeros
    (ScatterBackward0), max() fills zeros where the maximum was (MaskedFillBackward1), amax
    multiplies by its mask, cumsum flips, sums and flips back; a 1-d input's 0-d gradient gets
    its dimension back by unsqueeze when `dim` was given. The values agree as well."""
    seen = []
    for lib in (mg, torch):
        x = lib.arange(1.0, 1.0 + math.prod(shape)).reshape(shape).requires_grad_()
        y = GRAPHS_OF_BACKWARD[name](x * x)
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        seen.append((_graph_names(g), g.detach().numpy().tolist()))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name", ["amax", "amin"])
def test_amax_s_gradient_is_minus_zero_where_a_negative_gradient_does_not_reach(torch, name):
    """amax's formula multiplies by its mask, so a negative gradient leaves -0. elsewhere
    (max()'s fills zeros: +0.), as PyTorch's do."""
    def grads(lib):
        x = lib.tensor([1.0, 3.0, 3.0], requires_grad=True)
        getattr(x, name)().backward(lib.tensor(-1.0))
        y = lib.tensor([1.0, 3.0, 3.0], requires_grad=True)
        y.max().backward(lib.tensor(-1.0))
        return [str(x.grad), str(y.grad), np.signbit(x.grad.numpy()).tolist()]
    assert grads(mg) == grads(torch)


def test_max_of_a_tensor_with_nan_sends_its_gradient_to_the_nan(torch):
    """max() of a tensor holding nan is nan, and the gradient goes where the nans are."""
    def grad(lib):
        x = lib.tensor([1.0, float("nan"), 2.0], requires_grad=True)
        x.max().backward()
        return x.grad.tolist()
    assert grad(mg)[1] == grad(torch)[1] == 1.0
    assert grad(mg) == grad(torch) or np.allclose(grad(mg), grad(torch), equal_nan=True)


SECOND_DERIVATIVES = {
    "prod()": lambda lib, x: x.prod(), "prod(0)": lambda lib, x: x.prod(0).sum(),
    "std()": lambda lib, x: x.std(), "std(1)": lambda lib, x: x.std(1).sum(),
    "var(1)": lambda lib, x: x.var(1).sum(),
    "layer_norm": lambda lib, x: (lib.nn.functional.layer_norm(x, (3,)) ** 3).sum(),
    "layer_norm, affine": lambda lib, x: (lib.nn.functional.layer_norm(
        x, (3,), lib.tensor([1.5, 0.5, 2.0], dtype=lib.float64),
        lib.tensor([0.1, -0.2, 0.3], dtype=lib.float64)) ** 3).sum(),
    "batch_norm": lambda lib, x: (lib.nn.functional.batch_norm(
        x.T, None, None, training=True) ** 3).sum(),
    "instance_norm": lambda lib, x: (lib.nn.functional.instance_norm(
        x.reshape(1, 2, 3)) ** 3).sum()}


@pytest.mark.parametrize("name", SECOND_DERIVATIVES)
def test_second_derivatives_through_saved_results_and_statistics(torch, name):
    """A formula that uses the forward's result (prod, std) or statistics (the norms' mean and
    rstd) must use them as functions of the input when the backward builds a graph: else a
    hessian silently misses their terms (it did, for all of these)."""
    hessians = []
    for lib in (mg, torch):
        x = lib.tensor([[1.0, 2.0, 3.5], [0.5, 1.5, 2.25]], dtype=lib.float64)
        hessian = lib.autograd.functional.hessian(lambda t: SECOND_DERIVATIVES[name](lib, t), x)
        hessians.append(hessian.numpy())
    np.testing.assert_allclose(hessians[0], hessians[1], rtol=1e-9, atol=1e-9)


def test_a_norm_s_first_derivative_keeps_its_values_when_building_a_graph(torch):
    """create_graph=True gives layer_norm the same first derivative, to the bit, as without,
    and PyTorch's (to float32's last bits)."""
    def grads(lib, create_graph):
        x = lib.tensor(np.random.default_rng(3).normal(size=(4, 5)).astype(np.float32),
                       requires_grad=True)
        y = (lib.nn.functional.layer_norm(x, (5,)) ** 3).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=create_graph)
        return g.detach().numpy()
    assert np.array_equal(grads(mg, True), grads(mg, False))
    # (float32 statistics are rounded in another order than PyTorch's: the module docstring)
    np.testing.assert_allclose(grads(mg, True), grads(torch, True), rtol=1e-5)
