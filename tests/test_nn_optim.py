"""minigrad.nn and minigrad.optim: properties that need no PyTorch, then parity with real
PyTorch (skipped when it is not installed) for values, gradients, names, reprs and errors."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from minigrad.nn import functional as F


def mlp(lib, sizes=(2, 16, 16, 1)):
    layers = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        layers += [lib.nn.Linear(fan_in, fan_out), lib.nn.Tanh()]
    return lib.nn.Sequential(*layers[:-1])


def train(seed: int, steps: int = 60) -> list[float]:
    mg.manual_seed(seed)
    model = mlp(mg)
    x = mg.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = mg.tensor([[0.0], [1.0], [1.0], [0.0]])  # XOR: needs the hidden layers
    opt = mg.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = mg.nn.MSELoss()(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


# ---- no PyTorch needed ------------------------------------------------------------------

def test_mlp_learns_xor_and_is_deterministic():
    losses = train(seed=0)
    assert losses[-1] < 0.05 * losses[0], losses[::10]
    assert train(seed=0, steps=20) == losses[:20]
    assert train(seed=1, steps=20) != losses[:20]


def test_parameter_is_a_leaf_that_requires_grad_and_says_so():
    p = mg.nn.Parameter(mg.tensor([1.0, 2.0]))
    assert p.is_leaf and p.requires_grad and isinstance(p, mg.Tensor)
    assert repr(p) == "Parameter containing:\n" + repr(mg.tensor([1.0, 2.0], requires_grad=True))
    assert type(p * 2) is mg.Tensor and type(p.detach()) is mg.Tensor


def test_registration_order_gives_dotted_names():
    class Net(mg.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = mg.nn.Sequential(mg.nn.Linear(2, 3), mg.nn.ReLU(), mg.nn.Linear(3, 1))
            self.scale = mg.nn.Parameter(mg.ones(1))
            self.head = mg.nn.Linear(1, 1, bias=False)

        def forward(self, x):
            return self.head(self.body(x) * self.scale)

    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "scale", "body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias", "head.weight"]
    assert [n for n, _ in net.named_modules()] == ["", "body", "body.0", "body.1", "body.2", "head"]
    assert [type(m).__name__ for m in net.children()] == ["Sequential", "Linear"]
    assert net(mg.ones(4, 2)).shape == (4, 1)
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'scale'"):
        net.scale = mg.ones(1)
    net.scale = None
    assert "scale" not in dict(net.named_parameters())


def test_zero_grad_sets_none_by_default_and_zeros_in_place_otherwise():
    model = mlp(mg)
    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    for zero_grad in (model.zero_grad, opt.zero_grad):
        model(mg.ones(3, 2)).sum().backward()
        grads = [p.grad for p in model.parameters()]
        zero_grad(set_to_none=False)
        assert all(p.grad is g and not g.any().item() for p, g in zip(model.parameters(), grads))
        zero_grad()
        assert all(p.grad is None for p in model.parameters())


def test_train_and_eval_reach_every_submodule():
    model = mlp(mg)
    assert model.eval() is model and not any(m.training for m in model.modules())
    assert all(m.training for m in model.train().modules())


def test_state_dict_round_trip_copies_in_place():
    a, b = mlp(mg), mlp(mg)
    weight = b[0].weight
    assert repr(b.load_state_dict(a.state_dict())) == "<All keys matched successfully>"
    assert b[0].weight is weight and np.array_equal(weight.detach().numpy(), a[0].weight.detach().numpy())
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "0.bias"'):
        b.load_state_dict({k: v for k, v in a.state_dict().items() if k != "0.bias"})


@pytest.mark.parametrize("make", [lambda ps: mg.optim.SGD(ps, lr=0.1, momentum=0.9),
                                  lambda ps: mg.optim.Adam(ps)])
def test_step_changes_parameters_in_place_once_and_records_nothing(make):
    model = mlp(mg)
    params = list(model.parameters())
    before = [(p._version, p.detach().numpy().copy()) for p in params]
    model(mg.ones(3, 2)).sum().backward()
    make(params).step()
    for p, (version, values) in zip(params, before):
        assert p.is_leaf and p.grad_fn is None and p._version == version + 1
        assert not np.array_equal(p.detach().numpy(), values)


def test_first_momentum_buffer_is_a_copy_of_the_gradient():
    p = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
    opt = mg.optim.SGD([p], lr=0.5, momentum=0.9)
    p.grad = mg.tensor([0.5, 0.25])
    opt.step()
    buffer = opt.state[p]["momentum_buffer"]
    assert buffer.tolist() == [0.5, 0.25] and buffer._data is not p.grad._data
    assert p.tolist() == [0.75, -2.125]


def test_optimizer_state_dict_resumes_training_exactly():
    mg.manual_seed(4)
    model, x = mlp(mg), mg.randn(8, 2)
    opt = mg.optim.Adam(model.parameters(), lr=0.01)

    def step(opt):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()

    step(opt)
    saved_model, saved_opt = model.state_dict(), opt.state_dict()
    saved_model = {k: v.clone() for k, v in saved_model.items()}
    saved_opt = {"state": {i: {k: v.clone() for k, v in s.items()}
                           for i, s in saved_opt["state"].items()},
                 "param_groups": saved_opt["param_groups"]}
    step(opt)
    after = [p.tolist() for p in model.parameters()]
    model.load_state_dict(saved_model)
    resumed = mg.optim.Adam(model.parameters(), lr=0.5)
    resumed.load_state_dict(saved_opt)
    assert resumed.param_groups[0]["lr"] == 0.01
    step(resumed)
    assert [p.tolist() for p in model.parameters()] == after


def test_log_softmax_is_stable_for_huge_logits():
    out = F.log_softmax(mg.tensor([[1000.0, 0.0], [-1000.0, 1000.0]]), dim=1)
    assert np.allclose(out.numpy(), [[0.0, -1000.0], [-2000.0, 0.0]])


def f64(*shape, seed=0):
    return mg.tensor(np.random.default_rng(seed).standard_normal(shape), requires_grad=True)


LABELS = mg.tensor([2, 0, -100, 1])
TARGET = mg.tensor(np.linspace(-1, 1, 12).reshape(4, 3))
GRADCHECKS = {
    "log_softmax": lambda x: F.log_softmax(x, dim=1),
    "log_softmax_dim0": lambda x: F.log_softmax(x, dim=0),
    "softmax": lambda x: F.softmax(x, dim=-1),
    "cross_entropy": lambda x: F.cross_entropy(x, LABELS),
    "cross_entropy_none": lambda x: F.cross_entropy(x, LABELS, reduction="none"),
    "cross_entropy_weighted_sum": lambda x: F.cross_entropy(
        x, LABELS, weight=mg.tensor([1.0, 2.0, 0.5], dtype=mg.float64), reduction="sum"),
    "mse_loss": lambda x: F.mse_loss(x, TARGET),
    "mse_loss_none": lambda x: F.mse_loss(x, TARGET, reduction="none"),
    "linear": lambda x: F.linear(x, x[:2] * 1.5, x[0, :2]),
}


@pytest.mark.parametrize("name", GRADCHECKS)
def test_gradcheck(name):
    assert gradcheck(GRADCHECKS[name], (f64(4, 3),))


@pytest.mark.parametrize("name", ["log_softmax", "softmax", "cross_entropy", "mse_loss"])
def test_backward_can_be_differentiated_again(name):
    def gradient(x):
        with mg.enable_grad():  # gradcheck evaluates its function under no_grad
            (g,) = mg.autograd.grad((GRADCHECKS[name](x) ** 2).sum(), x, create_graph=True)
        return g
    assert gradcheck(gradient, (f64(4, 3, seed=1),))


def test_mse_loss_of_both_inputs_and_every_reduction():
    a, b = f64(3, 2), f64(3, 2, seed=5)
    for reduction in ("mean", "sum", "none"):
        assert gradcheck(lambda a, b, r=reduction: F.mse_loss(a, b, reduction=r), (a, b))


# ---- parity with PyTorch -----------------------------------------------------------------

@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def twins(torch):
    """The same MLP in both libraries: minigrad's initial weights copied into PyTorch's."""
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
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), atol=1e-6, rtol=0)
    for p, q in zip(ours.parameters(), theirs.parameters()):  # state: same keys, same values
        mine, theirs_state = opts[0].state[p], opts[1].state[q]
        assert list(mine) == list(theirs_state)
        for key in mine:
            np.testing.assert_allclose(mine[key].numpy(), theirs_state[key].numpy(), atol=1e-6)
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
