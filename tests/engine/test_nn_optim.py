"""minigrad.nn and minigrad.optim: properties that need no PyTorch. Parity with real
PyTorch (values, gradients, grad_fn names, reprs, errors) is in test_nn_optim_vs_torch.py."""
from __future__ import annotations

import itertools

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
