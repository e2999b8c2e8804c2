"""Names added in session 6 by how often public tutorials use them (scripts/api_coverage.py,
over 15 sources), against PyTorch 2.13: values (to the bit where the case returns arrays),
gradients, grad_fn names, printed text and error messages, and a few corners of each (0-d,
empty, integer inputs, float64, broadcasting)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from harness.parity import WithArrays, assert_same_as_torch

X = [[-1.5, 2.0, -0.25, 0.0], [3.0, -4.0, 0.5, -2.0], [1.0, 1.0, -1.0, 6.0]]


def _error(run: Callable[[], Any]) -> str:
    try:
        return repr(run())
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def _names(t: Any) -> list:
    """The grad_fn names of t's graph, depth first."""
    seen, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        seen.append(node.name().replace("torch::autograd::", ""))
        stack += [f for f, _ in node.next_functions]
    return seen


def _graded(lib: Any, out: Any, *inputs: Any, dtype: Any = None) -> WithArrays:
    """out, its graph's names, and the gradients of a weighted sum of it."""
    weights = lib.arange(1, out.numel() + 1, dtype=out.dtype).reshape(out.shape) / 7
    (out * weights).sum().backward()
    grads = [None if t.grad is None else t.grad for t in inputs]
    return WithArrays([out, _names(out), grads],
                      (out.detach().numpy(), *(g if g is None else g.numpy() for g in grads)))


# ---- nn.PReLU / F.prelu ---------------------------------------------------------------------

def _prelu(lib: Any) -> Any:
    x = lib.tensor(X, requires_grad=True)
    layer = lib.nn.PReLU()
    return [layer, _graded(lib, layer(x), x, layer.weight)]


def _prelu_per_channel(lib: Any) -> Any:
    x = lib.tensor([X, X], dtype=lib.float64).transpose(1, 2).requires_grad_()  # (2, 4, 3)
    layer = lib.nn.PReLU(4, init=0.1, dtype=lib.float64)
    return [layer, layer.weight, _graded(lib, layer(x), x, layer.weight)]


def _prelu_shapes(lib: Any) -> Any:
    w = lib.tensor([0.5], requires_grad=True)
    row = lib.tensor(X[0], requires_grad=True)
    zero_d = lib.tensor(-2.0, requires_grad=True)
    return [_graded(lib, lib.nn.functional.prelu(row, w), row, w),  # same ndim: no view
            _graded(lib, lib.nn.functional.prelu(zero_d, lib.tensor(0.25)), zero_d),
            lib.nn.functional.prelu(lib.ones(0, 3), lib.ones(3)),
            lib.nn.functional.prelu(row.detach(), lib.tensor(0.3))]


def _prelu_errors(lib: Any) -> Any:
    F = lib.nn.functional
    return [_error(f) for f in (
        lambda: F.prelu(lib.ones(2, 3), lib.ones(1, dtype=lib.float64)),
        lambda: F.prelu(lib.ones(2, 3), lib.ones(2)),
        lambda: F.prelu(lib.tensor(1.0), lib.ones(2)),
        lambda: F.prelu(lib.ones(2, 3), lib.ones(3, 1)),
        lambda: F.prelu(lib.ones(2, 3), lib.ones(1, 1)),
        lambda: F.prelu(lib.ones(2, 3, dtype=lib.int64), lib.ones(1, dtype=lib.int64)),
        lambda: F.prelu(lib.ones(2, 3), 0.25))]


# ---- the padding layers ---------------------------------------------------------------------

def _padding_layers(lib: Any) -> Any:
    nn = lib.nn
    layers = [nn.ReflectionPad2d(1), nn.ReflectionPad2d((1, 0, 2, 1)), nn.ReplicationPad2d(2),
              nn.ConstantPad2d(1, 3.5), nn.ConstantPad1d((2, 0), -1), nn.ZeroPad2d((0, 1, 1, 0)),
              nn.ReflectionPad1d(2), nn.ReplicationPad1d((0, 3)), nn.ZeroPad1d(1)]
    seen = []
    for layer in layers:
        x = lib.tensor([[X]], requires_grad=True)  # (1, 1, 3, 4)
        if "1d" in type(layer).__name__:
            x = lib.tensor([X], requires_grad=True)
        seen.append((layer, _graded(lib, layer(x), x)))
    return WithArrays([s[0] for s in seen] + [s[1].result for s in seen],
                      tuple(a for s in seen for a in s[1].arrays))


def _padding_errors(lib: Any) -> Any:
    nn = lib.nn
    return [_error(f) for f in (
        lambda: nn.ReflectionPad2d(3)(lib.ones(1, 1, 3, 4)),
        lambda: nn.ReflectionPad2d((1, 1))(lib.ones(1, 2, 2)))]


# ---- avg_pool1d, adaptive_avg_pool1d --------------------------------------------------------

def _pool1d(lib: Any) -> Any:
    F, nn = lib.nn.functional, lib.nn
    seen = []
    for make in (lambda x: F.avg_pool1d(x, 2), lambda x: F.avg_pool1d(x, 3, 1, 1),
                 lambda x: F.avg_pool1d(x, (3,), 2, ceil_mode=True, count_include_pad=False),
                 lambda x: F.adaptive_avg_pool1d(x, 3), lambda x: F.adaptive_avg_pool1d(x, 1),
                 lambda x: nn.AvgPool1d(3, 1, 1)(x[None]), lambda x: nn.AdaptiveAvgPool1d(2)(x)):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        seen.append(_graded(lib, make(x), x))
    return WithArrays([s.result for s in seen] + [nn.AvgPool1d(3, 1, 1),
                                                    nn.AdaptiveAvgPool1d(2)],
                      tuple(a for s in seen for a in s.arrays))


def _pool1d_corners(lib: Any) -> Any:
    F = lib.nn.functional
    x = lib.arange(10.0).reshape(2, 5)
    return [_error(f) for f in (
        lambda: F.avg_pool1d(x[0], 2), lambda: F.avg_pool1d(x[None, None], 2),
        lambda: F.avg_pool1d(x, (2, 2)), lambda: F.avg_pool1d(x.long(), 2),
        lambda: F.adaptive_avg_pool1d(x[0], 3), lambda: F.adaptive_avg_pool1d(x, 0),
        lambda: F.adaptive_avg_pool1d(x, (3,)), lambda: F.adaptive_avg_pool1d(x.long(), 2))]


# ---- nn.CosineSimilarity, cosine_embedding_loss ---------------------------------------------

def _cosine_similarity(lib: Any) -> Any:
    a = lib.tensor(X, requires_grad=True)
    b = lib.tensor(X[::-1], requires_grad=True)
    layer = lib.nn.CosineSimilarity(dim=0)
    return [layer, _graded(lib, layer(a, b), a, b),
            lib.nn.CosineSimilarity()(a[0:1].detach(), b.detach().double()),
            lib.nn.CosineSimilarity(dim=1, eps=1e-3)(lib.zeros(2, 3), lib.ones(2, 3))]


def _cosine_embedding_loss(lib: Any) -> Any:
    F = lib.nn.functional
    seen = []
    for reduction, margin in (("mean", 0.0), ("none", -0.5), ("sum", 0.2)):
        a = lib.tensor(X, requires_grad=True)
        b = lib.tensor(X[::-1], requires_grad=True)
        out = F.cosine_embedding_loss(a, b, lib.tensor([1, -1, 0]), margin, reduction=reduction)
        seen.append(_graded(lib, out, a, b))
    row = lib.tensor(X[1], requires_grad=True)
    seen.append(_graded(lib, lib.nn.CosineEmbeddingLoss()(row, row.detach() * -1,
                                                           lib.tensor(-1)), row))
    return WithArrays([s.result for s in seen] + [lib.nn.CosineEmbeddingLoss(margin=0.5)],
                      tuple(a for s in seen for a in s.arrays))


def _cosine_embedding_errors(lib: Any) -> Any:
    F = lib.nn.functional
    a, b = lib.ones(2, 3), lib.ones(2, 3)
    return [_error(f) for f in (
        lambda: F.cosine_embedding_loss(a, b, lib.tensor([1, -1, 1])),
        lambda: F.cosine_embedding_loss(a, b[0], lib.tensor([1, -1])),
        lambda: F.cosine_embedding_loss(a[None], b[None], lib.tensor([1, -1])),
        lambda: F.cosine_embedding_loss(a, b, lib.tensor([[1, -1]])),
        lambda: F.cosine_embedding_loss(a[0], b, lib.tensor(1)),
        lambda: F.cosine_embedding_loss(a, b, lib.tensor([1, -1]), reduction="all"))]


# ---- torch.distributions: Categorical, Normal, Multinomial ---------------------------------

def _categorical_reinforce(lib: Any) -> Any:
    """pytorch/examples' REINFORCE: actions drawn from a policy's softmax, the loss
    -log_prob * return."""
    from importlib import import_module
    Categorical = import_module(f"{lib.__name__}.distributions").Categorical
    lib.manual_seed(543)
    layer = lib.nn.Linear(4, 3)
    state = lib.randn(5, 4)
    probs = lib.nn.functional.softmax(layer(state), dim=1)
    m = Categorical(probs)
    action = m.sample()
    loss = (-m.log_prob(action) * lib.tensor([1.0, -0.5, 2.0, 0.25, 1.5])).sum()
    loss.backward()
    return WithArrays([m, action, m.sample((2,)), loss, _names(loss), m.entropy(), m.mode,
                       m.mean, m],
                      (loss.detach().numpy(), layer.weight.grad.numpy(), layer.bias.grad.numpy()))


def _categorical_logits(lib: Any) -> Any:
    from importlib import import_module
    Categorical = import_module(f"{lib.__name__}.distributions.categorical").Categorical
    lib.manual_seed(0)
    logits = lib.tensor([[1.0, 2.0, -1.0], [0.0, 3.0, 0.5]], dtype=lib.float64,
                        requires_grad=True)
    m = Categorical(logits=logits)
    out = m.entropy().sum() + m.log_prob(lib.tensor([[2], [1]])).sum()
    out.backward()
    return WithArrays([m, m.sample(), m.sample((3,)), m.probs, m.batch_shape, m.event_shape,
                       out, logits.grad, m.log_prob(lib.tensor(1))],
                      (out.detach().numpy(), logits.grad.numpy()))


def _categorical_errors(lib: Any) -> Any:
    from importlib import import_module
    Categorical = import_module(f"{lib.__name__}.distributions").Categorical
    p = lib.tensor([0.1, 0.2, 0.7])
    return [_error(f) for f in (
        lambda: Categorical(p, p), lambda: Categorical(), lambda: Categorical(lib.tensor([1.0, -2.0])),
        lambda: Categorical(lib.tensor(1.0)), lambda: Categorical(logits=lib.tensor(1.0)),
        lambda: Categorical(logits=lib.tensor([0.0, float("nan")])),
        lambda: Categorical(p).log_prob(lib.tensor(3)),
        lambda: Categorical(p).log_prob(lib.tensor(0.5)),
        lambda: Categorical(p).log_prob(2),
        lambda: Categorical(lib.ones(2, 3)).log_prob(lib.tensor([0, 1, 2])),
        lambda: Categorical(lib.tensor([1.0, -2.0]), validate_args=False))]


def _normal(lib: Any) -> Any:
    from importlib import import_module
    Normal = import_module(f"{lib.__name__}.distributions").Normal
    lib.manual_seed(7)
    loc = lib.tensor([0.0, 1.0, -2.0], requires_grad=True)
    scale = lib.tensor([1.0, 0.5, 2.0], requires_grad=True)
    n = Normal(loc, scale)
    x = n.rsample((2,))
    out = (x * x).sum() + n.log_prob(lib.tensor([0.5, 0.5, 0.5])).sum() + n.entropy().sum()
    out.backward()
    n64 = Normal(lib.zeros(2, 1, dtype=lib.float64), lib.ones(3, dtype=lib.float64))
    return WithArrays([n, n.sample(), n.sample((2,)), x, _names(out), n.mean, n.stddev,
                       n.variance, n.mode, n.cdf(lib.tensor(0.3)), Normal(0.0, 1.0),
                       Normal(0.0, 1.0).sample((3,)), Normal(lib.zeros(2), 2), n64,
                       n64.batch_shape, n64.rsample()],
                      (out.detach().numpy(), loc.grad.numpy(), scale.grad.numpy()))


def _normal_errors(lib: Any) -> Any:
    from importlib import import_module
    Normal = import_module(f"{lib.__name__}.distributions").Normal
    return [_error(f) for f in (
        lambda: Normal(0.0, -1.0), lambda: Normal(lib.zeros(2), lib.tensor([1.0, 0.0])),
        lambda: Normal(float("nan"), 1.0), lambda: Normal(0.0, 1.0).log_prob(1),
        lambda: Normal(lib.zeros(2), 1.0).log_prob(lib.zeros(3)),
        lambda: Normal(lib.zeros(2), lib.ones(3)), lambda: Normal("a", 1.0),
        lambda: Normal(0.0, -1.0, validate_args=False))]


def _multinomial(lib: Any) -> Any:
    """d2l's dice: counts of each face in draws of a Multinomial."""
    from importlib import import_module
    Multinomial = import_module(f"{lib.__name__}.distributions.multinomial").Multinomial
    lib.manual_seed(0)
    fair = lib.ones(6) / 6
    logits = lib.tensor([[0.5, 1.0, -1.0], [0.0, 0.0, 2.0]], requires_grad=True)
    m = Multinomial(10, logits=logits)
    log_prob = m.log_prob(lib.tensor([[2.0, 3.0, 5.0], [0.0, 0.0, 10.0]]))
    log_prob.sum().backward()
    return WithArrays([Multinomial(1, fair).sample(), Multinomial(10, fair).sample(),
                       Multinomial(10, fair).sample((3,)), m, m.sample(), m.mean, m.variance,
                       m.batch_shape, m.event_shape, log_prob, _names(log_prob)],
                      (log_prob.detach().numpy(), logits.grad.numpy()))


def _multinomial_errors(lib: Any) -> Any:
    from importlib import import_module
    Multinomial = import_module(f"{lib.__name__}.distributions").Multinomial
    p = lib.tensor([0.2, 0.3, 0.5])
    return [_error(f) for f in (
        lambda: Multinomial(2.0, p), lambda: Multinomial(3, p).log_prob(lib.tensor([1.0, 1.0])),
        lambda: Multinomial(3, p).log_prob(lib.tensor([1.0, -1.0, 3.0])),
        lambda: Multinomial(3, p).log_prob(lib.tensor([[1.0, 1.0, 1.0], [3.0, 1.0, 0.0]])))]


# ---- nn.init.orthogonal_ --------------------------------------------------------------------

def _orthogonal(lib: Any) -> Any:
    """The draws are PyTorch's; the QR is numpy's (the last bits of float32 may differ: the
    arrays are compared within rtol, the printed form is only the shapes and dtypes)."""
    lib.manual_seed(0)
    made = [lib.nn.init.orthogonal_(lib.empty(*shape), gain=2.0)
            for shape in ((3, 5), (5, 3), (4, 4), (2, 3, 2))]
    made.append(lib.nn.init.orthogonal_(lib.empty(4, 2, dtype=lib.float64)))
    lstm = lib.nn.LSTM(3, 4)
    lib.nn.init.orthogonal_(lstm.weight_hh_l0)
    made.append(lstm.weight_hh_l0.detach())
    shown = [(w.shape, w.dtype) for w in made] + [lstm.weight_hh_l0.grad_fn,
                                                 lib.nn.init.orthogonal_(lib.empty(0, 3))]
    return WithArrays(shown, tuple(w.numpy() for w in made))


def _orthogonal_errors(lib: Any) -> Any:
    return [_error(lambda: lib.nn.init.orthogonal_(lib.empty(3)))]


CASES = {f.__name__.lstrip("_"): f for f in (
    _prelu, _prelu_per_channel, _prelu_shapes, _prelu_errors, _padding_layers, _padding_errors,
    _pool1d, _pool1d_corners, _cosine_similarity, _cosine_embedding_loss,
    _cosine_embedding_errors, _categorical_reinforce, _categorical_logits, _categorical_errors,
    _normal, _normal_errors, _multinomial, _multinomial_errors, _orthogonal, _orthogonal_errors)}


# Gradients that add several contributions per element in another order than PyTorch's, in
# ops that were there before (x * x's MulBackward0 twice into one leaf; the reflected border's
# and the overlapping windows' sums; softmax's and logsumexp's backwards): the last bit may
# differ, so they are compared within rtol.
RTOL = {"cosine_embedding_loss": 1e-6, "padding_layers": 1e-6, "pool1d": 1e-6,
        "categorical_reinforce": 1e-6, "categorical_logits": 1e-12,
        "orthogonal": 1e-5}  # (numpy's QR of float32 is in double precision; LAPACK's single)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_torch(name: str, torch: Any) -> None:
    assert_same_as_torch(CASES[name], torch, RTOL.get(name))


def test_nn_modules_names_each_class_where_pytorch_defines_it(torch: Any) -> None:
    """`torch.nn.modules.linear.Linear` is `torch.nn.Linear`, file by file as PyTorch's; each
    file minigrad names is one of PyTorch's, and holds all of minigrad's classes PyTorch has
    there."""
    import minigrad

    ours = minigrad.nn.modules
    for file in ("activation", "batchnorm", "container", "conv", "distance", "dropout",
                 "flatten", "instancenorm", "linear", "loss", "module", "normalization",
                 "padding", "pooling", "rnn", "sparse"):
        theirs = getattr(torch.nn.modules, file)
        named = {n for n, v in vars(getattr(ours, file)).items() if isinstance(v, type)}
        assert named, file
        for name in named:
            assert getattr(theirs, name) is getattr(torch.nn, name), (file, name)
            assert getattr(getattr(ours, file), name) is getattr(minigrad.nn, name)
        expected = {n for n, v in vars(theirs).items() if isinstance(v, type)
                    and v.__module__ == theirs.__name__ and hasattr(minigrad.nn, n)}
        assert expected <= named, (file, expected - named)
