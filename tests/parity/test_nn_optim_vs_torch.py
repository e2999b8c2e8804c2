"""minigrad.nn and minigrad.optim against real PyTorch: the same model and data give the
same parameters after SGD/Adam steps, the losses the same values, gradients and grad_fn
names, and modules, optimizers and errors the same text. Skipped without PyTorch."""
from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import minigrad as mg


def mlp(lib, sizes=(2, 16, 16, 1)):
    layers = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        layers += [lib.nn.Linear(fan_in, fan_out), lib.nn.Tanh()]
    return lib.nn.Sequential(*layers[:-1])


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
              ("Adam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
              ("AdamW", {"lr": 0.01}), ("AdamW", {"lr": 0.01, "amsgrad": True}),
              ("Adagrad", {"lr": 0.1}),
              ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1,
                           "initial_accumulator_value": 0.5}),
              ("Adadelta", {}), ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1}),
              ("Adadelta", {"eps": 1e-3, "maximize": True})]


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
    assert graph == want_graph


_RNG = np.random.default_rng(11)
_LOGITS = _RNG.standard_normal((4, 3))
_PROBS = _RNG.uniform(0.05, 0.95, (4, 3))
_WEIGHTS = _RNG.uniform(0.5, 2.0, (4, 3))
_CLASSES = np.array([2, 0, 1, 1])

# Each loss with every tensor argument it takes, float64; the test makes each in turn (and all
# together) require grad. The arguments: name -> (array, whether it is an index tensor).
LOSS_ARGUMENTS = {
    "mse_loss": ("mse_loss", {"input": _LOGITS, "target": _PROBS}, {}),
    "mse_loss, broadcast target": ("mse_loss", {"input": _LOGITS, "target": _PROBS[0]}, {}),
    "l1_loss": ("l1_loss", {"input": _LOGITS, "target": _PROBS}, {}),
    "binary_cross_entropy": ("binary_cross_entropy",
                             {"input": _PROBS, "target": _PROBS[::-1].copy(),
                              "weight": _WEIGHTS}, {}),
    "binary_cross_entropy, broadcast weight": ("binary_cross_entropy",
                                               {"input": _PROBS, "target": _PROBS[::-1].copy(),
                                                "weight": _WEIGHTS[0]}, {}),
    "binary_cross_entropy_with_logits": ("binary_cross_entropy_with_logits",
                                         {"input": _LOGITS, "target": _PROBS,
                                          "weight": _WEIGHTS, "pos_weight": _WEIGHTS[1]}, {}),
    "cross_entropy, probabilities": ("cross_entropy",
                                     {"input": _LOGITS, "target": _PROBS / _PROBS.sum(1)[:, None],
                                      "weight": _WEIGHTS[0]}, {}),
    "cross_entropy, probabilities, smoothed": ("cross_entropy",
                                               {"input": _LOGITS, "target": _PROBS,
                                                "weight": _WEIGHTS[0]},
                                               {"label_smoothing": 0.2}),
    "cross_entropy, classes": ("cross_entropy",
                               {"input": _LOGITS, "target": _CLASSES, "weight": _WEIGHTS[0]},
                               {}),
    "cross_entropy, classes, smoothed, ignored": ("cross_entropy",
                                                  {"input": _LOGITS, "target": _CLASSES,
                                                   "weight": _WEIGHTS[0]},
                                                  {"label_smoothing": 0.3, "ignore_index": 1}),
    "nll_loss": ("nll_loss", {"input": _LOGITS, "target": _CLASSES, "weight": _WEIGHTS[0]},
                 {"ignore_index": 0}),
    "nll_loss, 3-d": ("nll_loss", {"input": _LOGITS.reshape(2, 3, 2),
                                   "target": _CLASSES.reshape(2, 2) % 2,
                                   "weight": _WEIGHTS[0]}, {}),
}


def _loss_outcome(lib, case, reduction, needs_grad):
    """The loss, every argument's gradient and the graph's names, or the error; each float
    argument named in `needs_grad` requires grad."""
    function, arrays, options = LOSS_ARGUMENTS[case]
    args = {name: lib.tensor(data, requires_grad=name in needs_grad and data.dtype.kind == "f")
            for name, data in arrays.items()}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # mse_loss's broadcast warning: compared elsewhere
            out = getattr(lib.nn.functional, function)(**args, reduction=reduction, **options)
        out.backward(lib.ones_like(out))
    except RuntimeError as error:
        return str(error)
    return (out.detach().numpy(), names(out.grad_fn),
            {name: None if t.grad is None else t.grad.numpy() for name, t in args.items()})


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", LOSS_ARGUMENTS)
def test_losses_differentiate_each_argument_as_torch(torch, case, reduction):
    """PyTorch's losses differentiate their input and a float target (binary_cross_entropy's
    target too), and refuse a weight or pos_weight that requires grad."""
    arguments = [name for name, data in LOSS_ARGUMENTS[case][1].items() if data.dtype.kind == "f"]
    for needs_grad in [*([name] for name in arguments), arguments]:
        ours, theirs = (_loss_outcome(lib, case, reduction, needs_grad) for lib in (mg, torch))
        if isinstance(theirs, str):
            assert ours == theirs, needs_grad
            continue
        assert not isinstance(ours, str), (needs_grad, ours)
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
        assert ours[1] == theirs[1], needs_grad
        assert ours[2].keys() == theirs[2].keys()
        for name, grad in theirs[2].items():
            assert (ours[2][name] is None) == (grad is None), (needs_grad, name)
            if grad is not None:
                np.testing.assert_allclose(ours[2][name], grad, rtol=1e-12, atol=1e-15)


def _four_layers(lib):
    return lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1),
                             lib.nn.Tanh())


def _named_layers(lib):
    return lib.nn.Sequential(OrderedDict([("fc", lib.nn.Linear(2, 3)), ("act", lib.nn.ReLU()),
                                          ("out", lib.nn.Linear(3, 1))]))


def _assigned(sequential, index, module):
    sequential[index] = module
    return sequential


def _deleted(sequential, index):
    del sequential[index]
    return sequential, [name for name, _ in sequential.named_parameters()]


def _changed_in_place(sequential, change):
    change(sequential)
    return sequential


SEQUENTIAL = {  # what each returns is printed (or the error), by both libraries
    "s[1] = m": lambda lib: _assigned(_four_layers(lib), 1, lib.nn.Sigmoid()),
    "s[-1] = m": lambda lib: _assigned(_four_layers(lib), -1, lib.nn.Sigmoid()),
    "s[4] = m": lambda lib: _assigned(_four_layers(lib), 4, lib.nn.Sigmoid()),
    "s[1] = 3": lambda lib: _assigned(_four_layers(lib), 1, 3),
    "s[1] = None": lambda lib: _assigned(_four_layers(lib), 1, None),
    "s[1.0] = m": lambda lib: _assigned(_four_layers(lib), 1.0, lib.nn.ReLU()),
    "named s[1] = m": lambda lib: _assigned(_named_layers(lib), 1, lib.nn.Sigmoid()),
    "del s[0]": lambda lib: _deleted(_four_layers(lib), 0),
    "del s[-1]": lambda lib: _deleted(_four_layers(lib), -1),
    "del s[1:3]": lambda lib: _deleted(_four_layers(lib), slice(1, 3)),
    "del s[:]": lambda lib: _deleted(_four_layers(lib), slice(None)),
    "del s[9]": lambda lib: _deleted(_four_layers(lib), 9),
    "del named s[1]": lambda lib: _deleted(_named_layers(lib), 1),
    "pop": lambda lib: (lambda s: (s.pop(1), s))(_four_layers(lib)),
    "insert": lambda lib: _four_layers(lib).insert(1, lib.nn.Sigmoid()),
    "insert -1": lambda lib: _four_layers(lib).insert(-1, lib.nn.Sigmoid()),
    "insert at the end": lambda lib: _four_layers(lib).insert(4, lib.nn.Sigmoid()),
    "insert out of range": lambda lib: _four_layers(lib).insert(9, lib.nn.Sigmoid()),
    "insert a number": lambda lib: _four_layers(lib).insert(0, 3),
    "s + named": lambda lib: _four_layers(lib) + _named_layers(lib),
    "s + 3": lambda lib: _four_layers(lib) + 3,
    "s += s": lambda lib: _changed_in_place(_four_layers(lib),
                                            lambda s: s.__iadd__(_four_layers(lib))),
    "s[:2] * 2": lambda lib: _four_layers(lib)[:2] * 2,
    "2 * s[:1]": lambda lib: 2 * _four_layers(lib)[:1],
    "s * 0": lambda lib: _four_layers(lib) * 0,
    "s * 2.0": lambda lib: _four_layers(lib) * 2.0,
    "s[1:3] *= 3": lambda lib: _changed_in_place(_four_layers(lib)[1:3], lambda s: s.__imul__(3)),
    "named s[1:]": lambda lib: _named_layers(lib)[1:],
    "s[1.0]": lambda lib: _four_layers(lib)[1.0],
    "extend": lambda lib: _four_layers(lib).extend([lib.nn.ReLU()]),
    "dir has no indices": lambda lib: [k for k in dir(_four_layers(lib))
                                       if k in ("0", "1", "forward", "append")],
    "forward after del": lambda lib: (lib.manual_seed(0),
                                      _deleted(_four_layers(lib), 1)[0](lib.ones(1, 2)))[1],
}


@pytest.mark.parametrize("case", SEQUENTIAL)
def test_sequential_as_a_container_matches_torch(torch, case):
    """nn.Sequential's indexing, assignment, deletion (which renumbers), insert, pop, + and *."""
    assert _printed(SEQUENTIAL[case], mg) == _printed(SEQUENTIAL[case], torch)


def _printed(case, lib):
    try:
        return repr(case(lib))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return f"{type(error).__name__}: {error}"


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


def _clip_inf(lib):
    p = lib.nn.Parameter(lib.ones(2))
    p.grad = lib.tensor([float("inf"), 1.0])
    lib.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)


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
    # issue 31
    "Dropout(1.5)": lambda lib: lib.nn.Dropout(1.5),
    "dropout2d of 1-d": lambda lib: lib.nn.functional.dropout2d(lib.ones(3)),
    "dropout1d of 4-d": lambda lib: lib.nn.functional.dropout1d(lib.ones(1, 2, 3, 4)),
    "BatchNorm1d of 4-d": lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(2, 3, 2, 2)),
    "BatchNorm2d of 3-d": lambda lib: lib.nn.BatchNorm2d(3)(lib.ones(2, 3, 2)),
    "BatchNorm1d of one sample": lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(1, 3)),
    "LayerNorm of the wrong shape": lambda lib: lib.nn.LayerNorm(3)(lib.ones(2, 4)),
    "Embedding of floats": lambda lib: lib.nn.Embedding(3, 2)(lib.ones(2)),
    "Embedding out of range": lambda lib: lib.nn.Embedding(3, 2)(lib.tensor([3])),
    "xavier_uniform_ of 1-d": lambda lib: lib.nn.init.xavier_uniform_(lib.ones(3)),
    "calculate_gain('swish')": lambda lib: lib.nn.init.calculate_gain("swish"),
    "ModuleList index": lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])[1],
    "scheduler of a non-optimizer": lambda lib: lib.optim.lr_scheduler.StepLR(None, 2),
    "AdamW's negative lr": lambda lib: lib.optim.AdamW([lib.nn.Parameter(lib.ones(1))], lr=-1),
    "clip_grad_norm_ non-finite": lambda lib: _clip_inf(lib),
    "InstanceNorm2d of 2-d": lambda lib: lib.nn.InstanceNorm2d(3)(lib.ones(3, 4)),
    "InstanceNorm1d affine, wrong channels": lambda lib: lib.nn.InstanceNorm1d(3, affine=True)(
        lib.ones(2, 4, 5)),
    "GRU input size": lambda lib: lib.nn.GRU(3, 4)(lib.ones(5, 2, 2)),
    "RNN of 4-d input": lambda lib: lib.nn.RNN(3, 4)(lib.ones(1, 5, 2, 3)),
    "RNN h0 of the wrong rank": lambda lib: lib.nn.RNN(3, 4)(lib.ones(5, 3), lib.ones(1, 1, 4)),
    "RNN nonlinearity": lambda lib: lib.nn.RNN(3, 4, nonlinearity="sigmoid"),
    "conv_transpose2d channels": lambda lib: lib.nn.functional.conv_transpose2d(
        lib.ones(1, 3, 2, 2), lib.ones(2, 2, 3, 3)),
    "conv_transpose2d output_padding": lambda lib: lib.nn.functional.conv_transpose2d(
        lib.ones(1, 2, 2, 2), lib.ones(2, 2, 3, 3), output_padding=1),
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


# float32 losses reduced in PyTorch's order of additions, so that a printed `loss.item()`
# matches to the last digit: mse_loss as `unreduced.mean()`/`.sum()` (fidelity/summation.py),
# nll_loss (and cross_entropy) in its kernel's own cascade over the batch; batch sizes that
# climb one level of that cascade (300) and more than one (70,000), with ignored samples.
REDUCED_LOSSES = {
    "mse mean of 11": lambda lib, x, t, w: lib.nn.functional.mse_loss(x[:11, :1],
                                                                      x[11:22, 1:2] * 2),
    "mse sum of 300x5": lambda lib, x, t, w: lib.nn.functional.mse_loss(
        x[:300], x[300:600] * 0.5, reduction="sum"),
    "nll mean of 11": lambda lib, x, t, w: lib.nn.functional.nll_loss(x[:11], t[:11]),
    "cross_entropy of 300": lambda lib, x, t, w: lib.nn.functional.cross_entropy(x[:300], t[:300]),
    "nll weighted, ignored": lambda lib, x, t, w: lib.nn.functional.nll_loss(
        x[:300], t[:300].masked_fill(t[:300] == 4, -100), weight=w),
    "nll sum of 70000": lambda lib, x, t, w: lib.nn.functional.nll_loss(x, t, reduction="sum"),
    "nll2d weighted": lambda lib, x, t, w: lib.nn.functional.nll_loss(
        x[:600].reshape(6, 10, 10, 5).permute(0, 3, 1, 2), t[:600].reshape(6, 10, 10), weight=w),
}


@pytest.mark.parametrize("case", REDUCED_LOSSES)
def test_float32_losses_add_up_in_torchs_order(torch, case):
    rng = np.random.default_rng(3)
    data = (rng.standard_normal((70000, 5)) * 3).astype(np.float32)
    target = rng.integers(0, 5, 70000)
    weight = rng.uniform(0.3, 2.0, 5).astype(np.float32)
    values = [REDUCED_LOSSES[case](lib, lib.tensor(data), lib.tensor(target),
                                   lib.tensor(weight)).item() for lib in (mg, torch)]
    assert values[0] == values[1]



# nll_loss's gradient bit for bit, signs of zeros too: ATen's backward kernels compute
# w * -(grad / total_weight) for the mean (not (w / total_weight) * grad), -w * grad for none,
# and leave every other entry, an ignored sample's too, at the +0 of a zero-filled gradient;
# a negative upstream gradient (times -1.7) shows both.
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("spatial", [False, True], ids=["2-d", "4-d"])
def test_nll_loss_gradient_bits_match_torch(torch, reduction, weighted, spatial):
    rng = np.random.default_rng(5)
    shape, target_shape = ((3, 4, 2, 5), (3, 2, 5)) if spatial else ((7, 4), (7,))
    data = rng.standard_normal(shape).astype(np.float32)
    target = rng.integers(0, 4, target_shape)
    target.flat[1] = -100
    weight = rng.uniform(0.3, 2.0, 4).astype(np.float32)
    grads = []
    for lib in (mg, torch):
        x = lib.tensor(data, requires_grad=True)
        loss = lib.nn.functional.nll_loss(x, lib.tensor(target), reduction=reduction,
                                          weight=lib.tensor(weight) if weighted else None)
        (loss * -1.7).sum().backward()
        grads.append(x.grad.numpy())
    assert grads[0].tobytes() == grads[1].tobytes()



# softmax's and log_softmax's backward kernels add a row up from its first element: a row of
# -0.0 sums to -0.0 and its gradient comes out +0.0 (a sum from +0.0 would give -0.0). The
# signs of the zeros only: other entries differ in last bits (Sleef's exp).
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_backward_zero_signs_match_torch(torch, name):
    grad = [[-0.0, -0.0, -0.0], [1.0, -0.0, 0.0], [0.0, -0.0, -0.0]]
    grads = []
    for lib in (mg, torch):
        x = lib.tensor([[0.5, -1.0, 2.0], [1.0, 1.0, -3.0], [0.0, 2.0, 1.0]], requires_grad=True)
        getattr(x, name)(1).backward(lib.tensor(grad))
        grads.append(x.grad.numpy())
    zeros = (grads[0] == 0) & (grads[1] == 0)
    assert zeros.sum() >= 5
    assert (np.signbit(grads[0][zeros]) == np.signbit(grads[1][zeros])).all()


# ---- issue 31: layers, initialisers, hooks and schedulers by tutorial frequency -----------

LAYERS = {  # name: (module maker, input maker, bit for bit)
    "Embedding(6, 3)": (lambda lib: lib.nn.Embedding(6, 3), lambda lib: lib.tensor(
        [[1, 0, 5], [2, 2, 4]]), True),
    "Embedding padding_idx": (lambda lib: lib.nn.Embedding(6, 2, padding_idx=-1),
                              lambda lib: lib.tensor([5, 0, 5, 3]), True),
    "Embedding.from_pretrained": (lambda lib: lib.nn.Embedding.from_pretrained(
        lib.arange(6.0).reshape(3, 2), freeze=False), lambda lib: lib.tensor([2, 0]), True),
    "Dropout(0.3)": (lambda lib: lib.nn.Dropout(0.3), lambda lib: lib.randn(4, 5), True),
    "Dropout in eval": (lambda lib: lib.nn.Dropout(0.3).eval(), lambda lib: lib.randn(4, 5), True),
    "Dropout(p=1)": (lambda lib: lib.nn.Dropout(1.0), lambda lib: lib.randn(3), True),
    "Dropout1d": (lambda lib: lib.nn.Dropout1d(0.5), lambda lib: lib.randn(2, 4, 3), True),
    "Dropout2d": (lambda lib: lib.nn.Dropout2d(0.4), lambda lib: lib.randn(2, 4, 2, 2), True),
    "Dropout2d of 3-d": (lambda lib: lib.nn.Dropout2d(0.4), lambda lib: lib.randn(2, 4, 3), True),
    "LayerNorm(5)": (lambda lib: lib.nn.LayerNorm(5), lambda lib: lib.randn(4, 5) * 3, False),
    "LayerNorm((2, 5)) no affine": (lambda lib: lib.nn.LayerNorm((2, 5), elementwise_affine=False),
                                    lambda lib: lib.randn(3, 2, 5), False),
    "BatchNorm1d(5)": (lambda lib: lib.nn.BatchNorm1d(5), lambda lib: lib.randn(4, 5) + 1, False),
    "BatchNorm1d of 3-d, momentum None": (lambda lib: lib.nn.BatchNorm1d(3, momentum=None),
                                          lambda lib: lib.randn(4, 3, 2), False),
    "BatchNorm2d(3) no affine": (lambda lib: lib.nn.BatchNorm2d(3, affine=False),
                                 lambda lib: lib.randn(2, 3, 2, 2), False),
    "BatchNorm2d(3) in eval": (lambda lib: _trained_batch_norm(lib).eval(),
                               lambda lib: lib.randn(2, 3, 2, 2), False),
    # (those with a Linear are compared to float32 rounding: matmuls in MKL's order)
    "InstanceNorm2d(3)": (lambda lib: lib.nn.InstanceNorm2d(3), lambda lib: lib.randn(2, 3, 2, 2),
                          False),
    "InstanceNorm1d affine, unbatched": (lambda lib: lib.nn.InstanceNorm1d(3, affine=True),
                                         lambda lib: lib.randn(3, 4) * 2, False),
    "LazyLinear(3)": (lambda lib: lib.nn.LazyLinear(3), lambda lib: lib.randn(2, 4), False),
    "LazyBatchNorm1d": (lambda lib: lib.nn.LazyBatchNorm1d(), lambda lib: lib.randn(4, 3), False),
    "LazyConv2d(4, 3, padding=1)": (lambda lib: lib.nn.LazyConv2d(4, 3, padding=1),
                                    lambda lib: lib.randn(2, 3, 5, 5), False),
    "ConvTranspose2d(3, 4, 3)": (lambda lib: lib.nn.ConvTranspose2d(3, 4, 3),
                                 lambda lib: lib.randn(2, 3, 5, 5), False),
    "ConvTranspose2d(4, 2, 4, stride=2, padding=1)": (
        lambda lib: lib.nn.ConvTranspose2d(4, 2, 4, stride=2, padding=1),
        lambda lib: lib.randn(1, 4, 3, 3), False),
    "ConvTranspose2d output_padding, groups, no bias": (
        lambda lib: lib.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1,
                                           groups=2, bias=False),
        lambda lib: lib.randn(2, 4, 3, 4), False),
    "ConvTranspose1d dilated": (lambda lib: lib.nn.ConvTranspose1d(2, 3, 3, stride=3, dilation=2),
                                lambda lib: lib.randn(2, 2, 4), False),
    "ConvTranspose2d unbatched": (lambda lib: lib.nn.ConvTranspose2d(2, 2, 2),
                                  lambda lib: lib.randn(2, 3, 3), False),
    "d2l's lazy LeNet": (lambda lib: lib.nn.Sequential(
        lib.nn.LazyConv2d(6, kernel_size=5, padding=2), lib.nn.Sigmoid(),
        lib.nn.AvgPool2d(kernel_size=2, stride=2), lib.nn.LazyConv2d(16, kernel_size=5),
        lib.nn.Sigmoid(), lib.nn.AvgPool2d(kernel_size=2, stride=2), lib.nn.Flatten(),
        lib.nn.LazyLinear(12), lib.nn.Sigmoid(), lib.nn.LazyLinear(10)),
        lambda lib: lib.randn(2, 1, 28, 28), False),
    "LazyConv1d(2, 2, groups=2, no bias), unbatched": (
        lambda lib: lib.nn.LazyConv1d(2, 2, groups=2, bias=False), lambda lib: lib.randn(4, 6),
        False),
    "LazyBatchNorm2d": (lambda lib: lib.nn.LazyBatchNorm2d(), lambda lib: lib.randn(2, 3, 2, 2),
                        False),
    "GELU": (lambda lib: lib.nn.GELU(), lambda lib: lib.randn(3, 4) * 2, False),
    "GELU('tanh')": (lambda lib: lib.nn.GELU("tanh"), lambda lib: lib.randn(3, 4) * 2, False),
    "ELU": (lambda lib: lib.nn.ELU(0.5), lambda lib: lib.randn(3, 4), False),
    "Softplus": (lambda lib: lib.nn.Softplus(beta=2, threshold=3), lambda lib: lib.randn(3, 4) * 2,
                 False),
    "Identity": (lambda lib: lib.nn.Identity(54, unused="x"), lambda lib: lib.randn(2), True),
    "ModuleList": (lambda lib: _stacked(lib), lambda lib: lib.randn(2, 3), False),
    "ModuleDict": (lambda lib: _branches(lib), lambda lib: lib.randn(2, 3), False),
    "Sequential of LazyLinear, Dropout, ReLU": (lambda lib: lib.nn.Sequential(
        lib.nn.LazyLinear(4), lib.nn.Dropout(0.5), lib.nn.ReLU(), lib.nn.LazyLinear(1)),
        lambda lib: lib.randn(3, 2), False),
}


def _trained_batch_norm(lib):
    norm = lib.nn.BatchNorm2d(3)
    for _ in range(3):
        norm(lib.randn(4, 3, 2, 2) * 2 + 1)
    return norm


def _stacked(lib):
    class Stack(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = lib.nn.ModuleList([lib.nn.Linear(3, 3) for _ in range(3)])
            self.layers.append(lib.nn.Tanh())

        def forward(self, x):
            for layer in self.layers[:-1]:
                x = self.layers[-1](layer(x))
            return x
    return Stack()


def _branches(lib):
    class Branches(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.heads = lib.nn.ModuleDict({"a": lib.nn.Linear(3, 2), "b": lib.nn.Linear(3, 1)})

        def forward(self, x):
            return lib.cat([self.heads[k](x) for k in sorted(self.heads.keys())], 1)
    return Branches()


def _layer_outcome(lib, name):
    make_module, make_input, _ = LAYERS[name]
    lib.manual_seed(0)
    module = make_module(lib)
    before = repr(module)
    x = make_input(lib)
    if x.dtype.is_floating_point:
        x.requires_grad_(True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = module(x)
    weights = (lib.arange(1, out.numel() + 1) % 5 - 2).to(out.dtype).reshape(out.shape) / 4
    if out.requires_grad:
        (out * weights).sum().backward()
    grads = [None if t.grad is None else t.grad.numpy()
             for t in [x, *module.parameters()]]
    state = {k: v.numpy() for k, v in module.state_dict().items()}
    return {"text": (before, repr(module), type(out.grad_fn).__name__,
                     [str(w.message) for w in caught], list(state)),
            "numbers": [out.detach().numpy(), *grads, *state.values()],
            "printed": repr(out)}


@pytest.mark.parametrize("name", LAYERS)
def test_layers_match_torch(torch, name):
    ours, theirs = _layer_outcome(mg, name), _layer_outcome(torch, name)
    assert ours["text"] == theirs["text"]
    assert len(ours["numbers"]) == len(theirs["numbers"])
    for mine, want in zip(ours["numbers"], theirs["numbers"]):
        if want is None:
            assert mine is None
        elif LAYERS[name][2]:
            np.testing.assert_array_equal(mine, want)
            assert mine.dtype == want.dtype
        else:  # statistics and erf in PyTorch's own order and precision: to float32 rounding
            np.testing.assert_allclose(mine, want, rtol=2e-5, atol=2e-6)
    if LAYERS[name][2]:
        assert ours["printed"] == theirs["printed"]


def test_lazy_layers_take_a_loaded_state_dict_as_torch(torch):
    """d2l's File I/O: a fresh lazy model loads a trained one's state_dict, keeps the loaded
    values through its first call (which draws nothing), and prints as PyTorch's."""
    def run(lib):
        lib.manual_seed(0)
        trained = lib.nn.Sequential(lib.nn.LazyLinear(3), lib.nn.ReLU(), lib.nn.LazyBatchNorm1d())
        x = lib.randn(4, 2)
        trained.eval()
        want = trained(x)
        clone = lib.nn.Sequential(lib.nn.LazyLinear(3), lib.nn.ReLU(), lib.nn.LazyBatchNorm1d())
        loaded = repr(clone.load_state_dict(trained.state_dict()))
        before = repr(clone.eval())
        got = clone(x)
        return (loaded, before, repr(clone), lib.rand(1).item(),
                got.detach().numpy(), want.detach().numpy())
    ours, theirs = run(mg), run(torch)
    assert ours[:4] == theirs[:4]
    np.testing.assert_array_equal(ours[4], ours[5])
    np.testing.assert_array_equal(theirs[4], theirs[5])


INITS = {
    "xavier_uniform_": lambda lib, w: lib.nn.init.xavier_uniform_(w),
    "xavier_uniform_(gain=relu)": lambda lib, w: lib.nn.init.xavier_uniform_(
        w, gain=lib.nn.init.calculate_gain("relu")),
    "xavier_normal_": lambda lib, w: lib.nn.init.xavier_normal_(w),
    "kaiming_uniform_": lambda lib, w: lib.nn.init.kaiming_uniform_(w, a=0.2),
    "kaiming_normal_(fan_out, relu)": lambda lib, w: lib.nn.init.kaiming_normal_(
        w, mode="fan_out", nonlinearity="relu"),
    "normal_(std=0.01)": lambda lib, w: lib.nn.init.normal_(w, std=0.01),
    "uniform_(-0.1, 0.1)": lambda lib, w: lib.nn.init.uniform_(w, -0.1, 0.1),
    "constant_": lambda lib, w: lib.nn.init.constant_(w, 0.25),
    "zeros_, ones_": lambda lib, w: (lib.nn.init.zeros_(w[0]), lib.nn.init.ones_(w))[1],
    "eye_": lambda lib, w: lib.nn.init.eye_(w),
    "an init function on each module": lambda lib, w: _initialised(lib),
}


def _initialised(lib):
    def init_weights(m):
        if type(m) is lib.nn.Linear:
            lib.nn.init.xavier_uniform_(m.weight)
            lib.nn.init.zeros_(m.bias)
    net = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.Linear(3, 2))
    for module in net.modules():  # (what net.apply(init_weights) does, in PyTorch's order)
        init_weights(module)
    return net[2].weight


@pytest.mark.parametrize("name", INITS)
def test_initialisers_draw_torchs_numbers(torch, name):
    seen = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        weight = lib.nn.Linear(5, 3).weight
        out = INITS[name](lib, weight)
        seen.append((repr(out), out.detach().numpy(), lib.rand(1).item()))
    assert seen[0][0] == seen[1][0] and seen[0][2] == seen[1][2]
    np.testing.assert_array_equal(seen[0][1], seen[1][1])


def test_module_hooks_match_torch(torch):
    def run(lib):
        calls = []
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 2)
        pre = layer.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
        layer.register_forward_hook(lambda m, args, out: calls.append(
            ("forward", tuple(args[0].shape), round(out.sum().item(), 4))))
        layer.register_forward_hook(lambda m, args, out: out + 1, prepend=True)
        layer.register_full_backward_pre_hook(lambda m, grad_out: (grad_out[0] * 10,))
        layer.register_full_backward_hook(lambda m, gi, go: calls.append(  # (float32 matmuls)
            ("backward", [None if g is None else g.round(decimals=4).tolist() for g in gi],
             go[0].tolist())))
        x = lib.ones(2, 3, requires_grad=True)
        layer(x).sum().backward()
        pre.remove()
        out = layer(x)
        kwargs_hook = layer.register_forward_hook(
            lambda m, args, kwargs, out: out * 0, with_kwargs=True)
        zeroed = layer(x)
        kwargs_hook.remove()
        return (calls, x.grad.round(decimals=4).tolist(),
                layer.weight.grad.round(decimals=4).tolist(), repr(out), repr(zeroed))
    assert run(mg) == run(torch)


def test_module_float_and_double(torch):
    seen = []
    for lib in (mg, torch):
        net = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.BatchNorm1d(2))
        net.double()
        kinds = [str(t.dtype) for t in (*net.parameters(), *net.buffers())]
        net.float()
        seen.append((kinds, [str(t.dtype) for t in (*net.parameters(), *net.buffers())]))
    assert seen[0] == seen[1]


CLIPS = {
    "clip_grad_norm_(1.0)": lambda lib, ps: lib.nn.utils.clip_grad_norm_(ps, 1.0),
    "clip_grad_norm_(100) (no change)": lambda lib, ps: lib.nn.utils.clip_grad_norm_(ps, 100.0),
    "clip_grad_norm_(0.5, norm_type=1)": lambda lib, ps: lib.nn.utils.clip_grad_norm_(
        ps, 0.5, norm_type=1),
    "clip_grad_value_(0.1)": lambda lib, ps: lib.nn.utils.clip_grad_value_(ps, 0.1),
}


@pytest.mark.parametrize("name", CLIPS)
def test_gradient_clipping_matches_torch(torch, name):
    ours, theirs = twins(torch)
    data = np.random.default_rng(5).standard_normal((8, 2)).astype(np.float32)
    seen = []
    for lib, model in ((mg, ours), (torch, theirs)):
        lib.nn.functional.mse_loss(model(lib.tensor(data)), lib.ones(8, 1) * 3).backward()
        result = CLIPS[name](lib, model.parameters())
        seen.append((None if result is None else result.item(),
                     [p.grad.numpy() for p in model.parameters()]))
    assert (seen[0][0] is None) == (seen[1][0] is None)
    if seen[0][0] is not None:
        np.testing.assert_allclose(seen[0][0], seen[1][0], rtol=1e-6)
    for mine, want in zip(seen[0][1], seen[1][1]):  # float32 matmuls in MKL's order
        np.testing.assert_allclose(mine, want, rtol=1e-5, atol=1e-7)


SCHEDULERS = {
    "StepLR(3, 0.5)": lambda lib, o: lib.optim.lr_scheduler.StepLR(o, 3, gamma=0.5),
    "MultiStepLR([2, 5])": lambda lib, o: lib.optim.lr_scheduler.MultiStepLR(o, [2, 5, 5], 0.3),
    "ExponentialLR(0.9)": lambda lib, o: lib.optim.lr_scheduler.ExponentialLR(o, 0.9),
    "LinearLR": lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, 0.25, total_iters=4),
    "CosineAnnealingLR(4)": lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingLR(o, 4, 0.001),
    "LambdaLR": lambda lib, o: lib.optim.lr_scheduler.LambdaLR(o, lambda epoch: 0.95 ** epoch),
    "ReduceLROnPlateau": lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(
        o, patience=1, factor=0.5),
}


@pytest.mark.parametrize("name", SCHEDULERS)
def test_schedulers_set_torchs_learning_rates(torch, name):
    seen = []
    for lib in (mg, torch):
        p = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SGD([{"params": [p]}, {"params": [], "lr": 0.5}], lr=0.1, momentum=0.9)
        scheduler = SCHEDULERS[name](lib, opt)
        lrs = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for epoch in range(9):
                if epoch:  # the first epoch steps the scheduler before the optimizer
                    opt.step()
                if name == "ReduceLROnPlateau":
                    scheduler.step([3.0, 2.0, 2.5, 2.4, 2.6, 2.7, 1.0, 1.0, 1.2][epoch])
                else:
                    scheduler.step()
                lrs.append(scheduler.get_last_lr())
        seen.append((lrs, [g["lr"] for g in opt.param_groups], scheduler.last_epoch,
                     [str(w.message) for w in caught]))
    assert seen[0] == seen[1]


def test_pad_sequence_matches_torch(torch):
    seen = []
    for lib in (mg, torch):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0, 5.0])
        rnn = lib.nn.utils.rnn
        padded = (rnn.pad_sequence([a, b]), rnn.pad_sequence([a, b], batch_first=True,
                                                             padding_value=-1),
                  rnn.pad_sequence([b, a], padding_side="left"))
        (padded[0] * lib.arange(6.0).reshape(3, 2)).sum().backward()
        seen.append(([repr(p) for p in padded], a.grad.tolist()))
    assert seen[0] == seen[1]


def test_lbfgs_matches_torch(torch):
    """Rosenbrock's valley from (-1.5, 2), float64: the same iterates to rounding."""
    seen = []
    for lib in (mg, torch):
        x = lib.tensor([-1.5, 2.0], dtype=lib.float64, requires_grad=True)
        opt = lib.optim.LBFGS([x], lr=0.5, max_iter=15, history_size=5)

        def closure():
            opt.zero_grad()
            loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
            loss.backward()
            return loss
        losses = [opt.step(closure).item() for _ in range(3)]
        seen.append((losses, x.detach().numpy().copy(), opt.state[x]["func_evals"],
                     opt.state[x]["n_iter"], repr(opt)))
    np.testing.assert_allclose(seen[0][0], seen[1][0], rtol=1e-9)
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-9)
    assert seen[0][2:] == seen[1][2:]


RECURRENT = {
    "RNN(3, 4)": (lambda lib: lib.nn.RNN(3, 4), (5, 2, 3), None),
    "RNN relu, no bias, batch_first": (lambda lib: lib.nn.RNN(
        3, 4, nonlinearity="relu", bias=False, batch_first=True), (2, 5, 3), None),
    "RNN of one sequence, with h0": (lambda lib: lib.nn.RNN(3, 4), (5, 3), (1, 4)),
    "LSTM(3, 4)": (lambda lib: lib.nn.LSTM(3, 4), (5, 2, 3), None),
    "LSTM 2 layers, bidirectional": (lambda lib: lib.nn.LSTM(3, 4, num_layers=2,
                                                             bidirectional=True), (4, 2, 3), None),
    "LSTM with (h0, c0)": (lambda lib: lib.nn.LSTM(3, 2, batch_first=True), (2, 4, 3), (1, 2, 2)),
    "GRU(3, 4)": (lambda lib: lib.nn.GRU(3, 4), (5, 2, 3), None),
    "GRU 2 layers, dropout, batch_first": (lambda lib: lib.nn.GRU(
        3, 4, num_layers=2, dropout=0.5, batch_first=True), (2, 5, 3), None),
}


@pytest.mark.parametrize("name", RECURRENT)
def test_recurrent_layers_match_torch(torch, name):
    make, shape, state_shape = RECURRENT[name]
    seen = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        layer = make(lib)
        x = lib.randn(shape, requires_grad=True)
        args = [x]
        if state_shape is not None:
            h0 = lib.randn(state_shape, requires_grad=True)
            args.append((h0, h0 * 2) if isinstance(layer, lib.nn.LSTM) else h0)
        output, state = layer(*args)
        h_n = state[0] if isinstance(state, tuple) else state
        (output.sum() + (h_n * 3).sum()).backward()
        seen.append({"text": (repr(layer), [n for n, _ in layer.named_parameters()],
                              tuple(output.shape), tuple(h_n.shape), type(h_n.grad_fn).__name__),
                     "numbers": [output.detach().numpy(), h_n.detach().numpy(), x.grad.numpy(),
                                 *[p.grad.numpy() for p in layer.parameters()]]})
    assert seen[0]["text"] == seen[1]["text"]
    for mine, want in zip(seen[0]["numbers"], seen[1]["numbers"]):
        np.testing.assert_allclose(mine, want, rtol=1e-5, atol=1e-6)  # float32 matmuls


def test_conv_transpose_second_derivatives():
    """ConvTranspose's gradients are Functions too: gradgradcheck in float64."""
    mg.manual_seed(0)
    x = mg.randn(1, 2, 3, 3, dtype=mg.float64, requires_grad=True)
    w = mg.randn(2, 2, 2, 2, dtype=mg.float64, requires_grad=True)
    b = mg.randn(4, dtype=mg.float64, requires_grad=True)

    def f(x, w, b):
        return mg.nn.functional.conv_transpose2d(x, w, b, stride=2, groups=2, padding=1,
                                                 output_padding=1)
    assert mg.autograd.gradcheck(f, (x, w, b))
    assert mg.autograd.gradgradcheck(f, (x, w, b))
