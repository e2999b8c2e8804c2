"""minigrad.nn and minigrad.optim against real PyTorch: the same model and data give the
same parameters after SGD/Adam steps, the losses the same values, gradients and grad_fn
names, and modules, optimizers and errors the same text. Skipped without PyTorch."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import minigrad as mg


def mlp(lib, sizes=(2, 16, 16, 1)):
    layers = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        layers += [lib.nn.Linear(fan_in, fan_out), lib.nn.Tanh()]
    return lib.nn.Sequential(*layers[:-1])


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def twins(torch):
    """The same MLP in both libraries: minigrad's initial weights copied into PyTorch's. Seeded,
    so that the weights do not depend on which tests ran before on this worker."""
    mg.manual_seed(0)
    ours, theirs = mlp(mg), mlp(torch)
    with torch.no_grad():
        for p, q in zip(ours.parameters(), theirs.parameters()):
            q.copy_(torch.from_numpy(p.detach().numpy().copy()))
    return ours, theirs


OPTIMIZERS = [("SGD", {"lr": 0.1}), ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01}),
              ("SGD", {"lr": 0.05, "momentum": 0.5, "dampening": 0.3}),
              ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "maximize": True}),
              ("Adam", {"lr": 0.01}), ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
              ("Adam", {"lr": 0.02, "betas": (0.3, 0.9), "amsgrad": True}),
              ("Adam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True})]


@pytest.mark.parametrize(("name", "kwargs"), OPTIMIZERS, ids=[f"{n}{k}" for n, k in OPTIMIZERS])
def test_optimizer_steps_match_torch(torch, name, kwargs):
    ours, theirs = twins(torch)
    data = np.random.default_rng(3).standard_normal((16, 2)).astype(np.float32)
    target = np.sin(data[:, :1] * data[:, 1:])
    opts = [getattr(lib.optim, name)(m.parameters(), **kwargs)
            for lib, m in ((mg, ours), (torch, theirs))]
    for _ in range(5):
        for lib, model, opt in zip((mg, torch), (ours, theirs), opts):
            opt.zero_grad()
            lib.nn.functional.mse_loss(model(lib.tensor(data)), lib.tensor(target)).backward()
            opt.step()
    for p, q in zip(ours.parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), atol=1e-6,
                                   rtol=1e-5)  # float32: a few ulps on values near 10
    for p, q in zip(ours.parameters(), theirs.parameters()):  # state: same keys, same values
        mine, theirs_state = opts[0].state[p], opts[1].state[q]
        assert list(mine) == list(theirs_state)
        for key in mine:
            np.testing.assert_allclose(mine[key].numpy(), theirs_state[key].numpy(), atol=1e-6,
                                       rtol=1e-5)  # float32: a few ulps on values near 10
    assert repr(opts[0]) == repr(opts[1])
    ours_saved, theirs_saved = (opt.state_dict() for opt in opts)  # values compared above
    assert ours_saved["param_groups"] == theirs_saved["param_groups"]
    assert {i: list(s) for i, s in ours_saved["state"].items()} == \
        {i: list(s) for i, s in theirs_saved["state"].items()}


LOSSES = {
    "ce": lambda lib, x, t: lib.nn.functional.cross_entropy(x, t),
    "ce_sum_ignore": lambda lib, x, t: lib.nn.functional.cross_entropy(
        x, t, ignore_index=1, reduction="sum"),
    "ce_none_weight": lambda lib, x, t: lib.nn.functional.cross_entropy(
        x, t, weight=lib.tensor([1.0, 2.0, 3.0, 0.5], dtype=lib.float64), reduction="none"),
    "ce_soft": lambda lib, x, t: lib.nn.functional.cross_entropy(
        x, lib.nn.functional.softmax(x.detach(), 1)),
    "ce_one_sample": lambda lib, x, t: lib.nn.functional.cross_entropy(x[0], t[0]),
    "log_softmax0": lambda lib, x, t: lib.nn.functional.log_softmax(x, dim=0),
    "softmax": lambda lib, x, t: lib.nn.functional.softmax(x, dim=1),
    "mse": lambda lib, x, t: lib.nn.functional.mse_loss(x, x.detach().cos()),
    "mse_sum": lambda lib, x, t: lib.nn.functional.mse_loss(x, x.detach() * 2, reduction="sum"),
    "linear": lambda lib, x, t: lib.nn.functional.linear(x, x[:2] * 2, x[0, :2]),
    "linear_1d": lambda lib, x, t: lib.nn.functional.linear(x[0], x[:2] * 2, x[0, :2]),
    "mse_module": lambda lib, x, t: lib.nn.MSELoss(reduction="none")(x, x.detach() - 1),
    "ce_module": lambda lib, x, t: lib.nn.CrossEntropyLoss()(x, t),
}


def names(node) -> list:
    return [node.name(), [None if n is None else n.name() for n, _ in node.next_functions]]


@pytest.mark.parametrize("case", LOSSES)
def test_losses_values_grads_and_graph_match_torch(torch, case):
    data = np.random.default_rng(7).standard_normal((5, 4))
    results = []
    for lib in (mg, torch):
        x = lib.tensor(data, requires_grad=True)
        out = LOSSES[case](lib, x, lib.tensor([3, 0, 1, 1, 2]))
        out.backward(lib.ones_like(out))
        results.append((out.detach().numpy(), x.grad.numpy(), names(out.grad_fn)))
    (value, grad, graph), (want_value, want_grad, want_graph) = results
    np.testing.assert_allclose(value, want_value, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-10, atol=1e-12)
    if case != "ce_soft":  # PyTorch's soft-label graph is a chain of generic ops
        assert graph == want_graph


def test_module_reprs_names_and_versions_match_torch(torch):
    ours, theirs = twins(torch)
    extra = [(lib.nn.Linear(3, 2, bias=False), lib.nn.ReLU(inplace=True), lib.nn.Sigmoid(),
              lib.nn.MSELoss(), lib.nn.CrossEntropyLoss(), lib.nn.Sequential()) for lib in (mg, torch)]
    assert [repr(m) for m in extra[0]] == [repr(m) for m in extra[1]]
    assert repr(ours) == repr(theirs)
    assert repr(ours.state_dict()) == repr(theirs.state_dict())
    assert repr(ours[0].bias) == repr(theirs[0].bias)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert mg.nn.Linear(2, 3).weight._version == torch.nn.Linear(2, 3).weight._version


ERRORS = {
    "out_of_bounds": lambda lib: lib.nn.functional.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 1, 5])),
    "float_target": lambda lib: lib.nn.functional.nll_loss(lib.zeros(3, 4), lib.zeros(3)),
    "batch": lambda lib: lib.nn.functional.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 1])),
    "reduction": lambda lib: lib.nn.functional.mse_loss(lib.zeros(2), lib.zeros(2), reduction="avg"),
    "broadcast": lambda lib: lib.nn.functional.mse_loss(lib.zeros(3, 4), lib.zeros(3)),
    "dim": lambda lib: lib.nn.functional.log_softmax(lib.zeros(3, 4), dim=2),
    "mat_shapes": lambda lib: lib.nn.Linear(2, 3)(lib.zeros(4, 3)),
    "mat_dtypes": lambda lib: lib.nn.Linear(2, 3)(lib.zeros(4, 2, dtype=lib.float64)),
    "empty_params": lambda lib: lib.optim.SGD([], lr=0.1),
    "nesterov": lambda lib: lib.optim.SGD(lib.nn.Linear(1, 1).parameters(), nesterov=True),
    "beta": lambda lib: lib.optim.Adam(lib.nn.Linear(1, 1).parameters(), betas=(1.0, 0.9)),
    "non_leaf": lambda lib: lib.optim.Adam([lib.ones(1, requires_grad=True) * 2]),
    "int_param": lambda lib: lib.nn.Parameter(lib.tensor([1, 2])),
    "load": lambda lib: lib.nn.Linear(2, 3).load_state_dict({"weight": lib.zeros(3, 3), "x": lib.zeros(1)}),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_torch(torch, case):
    caught = []
    for lib in (mg, torch):
        with warnings.catch_warnings(), pytest.raises(Exception) as info:
            warnings.simplefilter("ignore")
            ERRORS[case](lib)
        caught.append((type(info.value).__name__, str(info.value)))
    assert caught[0] == caught[1]


def test_mse_broadcast_warning_matches_torch(torch):
    messages = []
    for lib in (mg, torch):
        with pytest.warns(UserWarning) as record:
            lib.nn.functional.mse_loss(lib.zeros(3, 1), lib.zeros(3))
        messages.append(str(record[0].message))
    assert messages[0] == messages[1]
