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


# ---- Tensor.random_ (NYU's tensor tutorial: torch.Tensor(5).random_(10)) ---------------------

def _random_(lib: Any) -> Any:
    lib.manual_seed(0)
    g = lib.Generator().manual_seed(3)
    return [lib.empty(5).random_(10), lib.empty(3, 2).random_(2), lib.empty(4).random_(-3, 3),
            lib.empty(3).random_(), lib.empty(3, dtype=lib.float64).random_(),
            lib.empty(3, dtype=lib.int64).random_(), lib.empty(3, dtype=lib.int32).random_(),
            lib.empty(4, dtype=lib.bool).random_(), lib.empty(3, dtype=lib.uint8).random_(),
            lib.empty(3, dtype=lib.int64).random_(100), lib.empty(0).random_(3),
            lib.empty(()).random_(3), lib.empty(4).random_(0, 6, generator=g),
            lib.empty(1, 10, 1).random_(2).squeeze(), lib.rand(2)]


def _refused_draws_leave_the_generator(lib: Any) -> Any:
    """A leaf that requires grad refuses each in-place draw before anything is drawn."""
    lib.manual_seed(0)
    errors = [_error(lambda: getattr(lib.ones(2, requires_grad=True), name)())
              for name in ("random_", "normal_", "uniform_", "exponential_", "bernoulli_")]
    return [errors, _error(lambda: lib.empty(2).random_(0)),
            _error(lambda: lib.empty(2).random_(5, 5)), lib.rand(2)]


# ---- torch.std_mean, torch.var_mean ---------------------------------------------------------

def _std_mean_var_mean(lib: Any) -> Any:
    shown, arrays = [], []
    for dtype in (lib.float32, lib.float64):
        for name, args, kwargs in (("std_mean", (), {}), ("var_mean", (1,), {}),
                                   ("var_mean", (1,), {"keepdim": True, "correction": 0}),
                                   ("std_mean", (), {"dim": (0, 1), "unbiased": False}),
                                   ("std_mean", (0, False, True), {})):
            x = lib.tensor(X, dtype=dtype, requires_grad=True)
            spread, mean = getattr(lib, name)(x, *args, **kwargs)
            (spread * 2 + mean * lib.tensor(3.0, dtype=dtype)).sum().backward()
            shown.append((spread, mean, type(spread.grad_fn) is type(mean.grad_fn)))
            arrays += [spread.detach().numpy(), mean.detach().numpy(), x.grad.numpy()]
        x = lib.tensor(X, dtype=dtype, requires_grad=True)
        v, m = lib.var_mean(x, 1)
        (g,) = lib.autograd.grad((v * m).sum(), x, create_graph=True)
        g.sum().backward()
        arrays += [g.detach().numpy(), x.grad.numpy()]
        x = lib.tensor(X, dtype=dtype, requires_grad=True)
        lib.std_mean(x, 0)[1].sum().backward()  # one output used: the other's gradient is 0
        arrays.append(x.grad.numpy())
    return WithArrays(shown, tuple(arrays))


def _std_mean_corners(lib: Any) -> Any:
    return [_error(f) for f in (
        lambda: lib.std_mean(lib.tensor([1.0, 2.0])[:1]), lambda: lib.std_mean(lib.tensor([1, 2])),
        lambda: lib.var_mean(lib.ones(0)), lambda: lib.var_mean(lib.tensor(3.0)),
        lambda: lib.std_mean(lib.ones(2, 3), 2), lambda: lib.var_mean(lib.ones(2, 0), 1),
        lambda: type(lib.std_mean(lib.ones(2))))]


# ---- torch.det, torch.inverse (torch.linalg.det / inv), torch.outer, torch.hypot -------------

M = [[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.0, 2.0, 4.0]]


def _det_inverse(lib: Any) -> Any:
    """float32's values are not compared (numpy's LU and solves round otherwise, and an entry
    that cancels to 0 in PyTorch may be an ulp of the others away): its graphs and dtypes are."""
    shown, arrays = [], []
    for dtype in (lib.float32, lib.float64):
        kept = len(arrays)
        for f in (lib.det, lib.linalg.det, lib.inverse, lib.linalg.inv, lambda a: a.det(),
                  lambda a: a.inverse()):
            a = lib.tensor(M, dtype=dtype, requires_grad=True)
            out = f(a)
            (out * lib.arange(1, out.numel() + 1, dtype=dtype).reshape(out.shape)).sum().backward()
            shown.append((_names(out), out.shape, out.dtype))
            arrays += [out.detach().numpy(), a.grad.numpy()]
        batch = lib.tensor([M, M[::-1]], dtype=dtype, requires_grad=True)
        out = lib.det(batch) + lib.inverse(batch).sum((-1, -2))
        out.sum().backward()
        arrays += [out.detach().numpy(), batch.grad.numpy()]
        a = lib.tensor(M, dtype=dtype, requires_grad=True)
        (g,) = lib.autograd.grad(lib.det(a), a, create_graph=True)  # (nodes differ: names' list)
        g.sum().backward()
        arrays += [g.detach().numpy(), a.grad.numpy()]
        if dtype is lib.float32:
            del arrays[kept:]
    for singular in ([[1.0, 2.0], [2.0, 4.0]], [[1.0, 1.0], [1.0, 1.0]]):
        a = lib.tensor(singular, dtype=lib.float64, requires_grad=True)
        lib.det(a).backward()
        # zeros (their signs, and det's, are not compared: numpy's LU and SVD are not PyTorch's)
        arrays += [lib.det(a.detach()).numpy(), a.grad.numpy()]
    return WithArrays(shown, tuple(arrays))


def _det_inverse_errors(lib: Any) -> Any:
    return [_error(f) for f in (
        lambda: lib.inverse(lib.ones(2, 2)), lambda: lib.inverse(lib.ones(2, 3)),
        lambda: lib.inverse(lib.ones(2, 2, dtype=lib.int64)), lambda: lib.inverse(lib.ones(3)),
        lambda: lib.linalg.inv(lib.zeros(3, 3)), lambda: lib.inverse(lib.zeros(0, 0)),
        lambda: lib.linalg.inv(lib.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 1.0]])),
        lambda: lib.det(lib.ones(2, 3)), lambda: lib.det(lib.ones(2, 2, dtype=lib.int64)),
        lambda: lib.det(lib.ones(3)), lambda: lib.det(lib.zeros(0, 0)),
        lambda: issubclass(lib.linalg.LinAlgError, RuntimeError))]


def _outer_hypot(lib: Any) -> Any:
    a = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = lib.tensor([4.0, 0.5], requires_grad=True)
    outer = _graded(lib, lib.outer(a, b), a, b)
    a.grad = b.grad = None
    hypot = _graded(lib, lib.hypot(a, a * 2), a)
    c = lib.tensor([[3.0], [0.0]], dtype=lib.float64, requires_grad=True)
    broadcast = _graded(lib, lib.hypot(c, lib.tensor([4.0, 0.0], dtype=lib.float64)), c)
    return WithArrays([outer.result, hypot.result, broadcast.result, a.ger(b),
                       lib.outer(lib.tensor([1, 2]), lib.tensor([3, 4])),
                       lib.hypot(lib.tensor(3.0, dtype=lib.float64), lib.tensor([4.0])),
                       lib.tensor([3.0]).hypot(lib.tensor([4.0]))],
                      outer.arrays + hypot.arrays + broadcast.arrays)


def _outer_hypot_errors(lib: Any) -> Any:
    return [_error(f) for f in (
        lambda: lib.outer(lib.ones(2, 2), lib.ones(2)), lambda: lib.outer(lib.ones(2), lib.ones(2, 2)),
        lambda: lib.hypot(lib.tensor([3.0]), 4.0), lambda: lib.hypot(lib.tensor([3]), lib.tensor([4])),
        lambda: lib.hypot(lib.ones(2), lib.ones(3)))]


# ---- torch.cdist -----------------------------------------------------------------------------

def _cdist_case(lib: Any, r1: int, r2: int, ps: tuple, same_row: bool) -> Any:
    rng = np.random.default_rng(0)
    shown, arrays = [], []
    for p in ps:
        for dtype in (lib.float32, lib.float64):
            first, second = rng.normal(size=(r1, 3)), rng.normal(size=(r2, 3))
            if same_row:  # a distance of 0: the subgradient 0
                second[0] = first[0]
            a = lib.tensor(first, dtype=dtype, requires_grad=True)
            b = lib.tensor(second, dtype=dtype, requires_grad=True)
            d = lib.cdist(a, b, p=p)
            (d * lib.tensor(rng.normal(size=(r1, r2)), dtype=dtype)).sum().backward()
            shown.append((_names(d), d.shape, d.dtype))
            arrays += [d.detach().numpy(), a.grad.numpy(), b.grad.numpy()]
    return WithArrays(shown, tuple(arrays))


def _cdist_pair_by_pair(lib: Any) -> Any:
    """25 rows or fewer (or p other than 2): CdistBackward0, features added in order."""
    return _cdist_case(lib, 3, 4, (2.0, 1.0, 3.0, float("inf"), 0.0), same_row=True)


def _cdist_by_matrix_product(lib: Any) -> Any:
    """p = 2 with more than 25 rows: |a|² - 2 a·b + |b|² from one product (it cancels: float32
    agrees to about 1e-5 of the largest entries)."""
    return _cdist_case(lib, 30, 4, (2.0,), same_row=False)


def _cdist_shapes_and_errors(lib: Any) -> Any:
    return [lib.cdist(lib.ones(2, 2, 3), lib.ones(4, 3)).shape, lib.cdist(lib.ones(0, 3), lib.ones(4, 3)),
            lib.cdist(lib.ones(30, 3), lib.ones(2, 3), compute_mode="donot_use_mm_for_euclid_dist"
                      ).grad_fn] + [_error(f) for f in (
        lambda: lib.cdist(lib.ones(2, 3), lib.ones(4, 2)), lambda: lib.cdist(lib.ones(3), lib.ones(4, 3)),
        lambda: lib.cdist(lib.ones(2, 3, dtype=lib.int64), lib.ones(4, 3, dtype=lib.int64)),
        lambda: lib.cdist(lib.ones(2, 3), lib.ones(4, 3), p=-1),
        lambda: lib.cdist(lib.ones(2, 3), lib.ones(4, 3, dtype=lib.float64)),
        lambda: lib.cdist(lib.ones(2, 2, 3), lib.ones(3, 4, 3)))]


# ---- F.interpolate / F.upsample (nearest), nn.Upsample ---------------------------------------

def _interpolate_nearest(lib: Any) -> Any:
    F = lib.nn.functional
    shown, arrays = [], []
    for make in (lambda x: F.upsample(x, scale_factor=2, mode="nearest"),  # Udacity's decoder
                 lambda x: F.interpolate(x, size=(3, 5)), lambda x: F.interpolate(x, scale_factor=1.5),
                 lambda x: F.interpolate(x[0], scale_factor=0.6), lambda x: F.interpolate(x[0], size=7),
                 lambda x: F.interpolate(x[None], scale_factor=(1, 2, 3)),
                 lambda x: lib.nn.Upsample(scale_factor=2)(x)):
        x = lib.arange(8.0, dtype=lib.float64).reshape(1, 2, 2, 2).requires_grad_()
        graded = _graded(lib, make(x), x)
        shown.append(graded.result)
        arrays += graded.arrays
    shown += [lib.nn.Upsample(scale_factor=2), lib.nn.Upsample(size=(3, 4))]
    return WithArrays(shown, tuple(arrays))


def _interpolate_errors(lib: Any) -> Any:
    F, x = lib.nn.functional, lib.ones(1, 1, 2, 2)
    return [_error(f) for f in (
        lambda: F.interpolate(x, size=3, scale_factor=2), lambda: F.interpolate(x),
        lambda: F.interpolate(x[0, 0], size=3))]


# ---- torch.histogram --------------------------------------------------------------------------

def _histogram(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0, 1.0, 2.5, 4.0, 0.3])
    lib.manual_seed(0)
    y = lib.randn(10000)
    many = [lib.histogram(y, 50), lib.histogram(y.double(), 7, range=(-1.0, 1.0)),
            lib.histogram(y[:3], 2, density=True)]
    return WithArrays([lib.histogram(x, bins=4), lib.histogram(x, 3, range=(0.0, 3.0)),
                       lib.histogram(x, 4, weight=lib.ones(6) * 2, density=True),
                       lib.histogram(lib.ones(3), 2), lib.histogram(x, lib.tensor([0.0, 1, 2.5, 5])),
                       x.histogram(2), type(lib.histogram(x, 2)).__name__,
                       lib.histogram(x.double(), 3), lib.histogram(lib.empty(0), 3)]
                      + [_error(f) for f in (lambda: lib.histogram(x.long(), 2),
                                             lambda: lib.histogram(x, 0),
                                             lambda: lib.histogram(x, 3, range=(3.0, 0.0)))],
                      tuple(a for h in many for a in (h.hist.numpy(), h.bin_edges.numpy())))


# ---- torch._foreach_copy_, torch.get_num_threads / set_num_threads ----------------------------

def _foreach_copy(lib: Any) -> Any:
    a, b = [lib.zeros(2), lib.zeros(3, dtype=lib.float64)], [lib.ones(2), lib.arange(3)]
    w = lib.zeros(2, requires_grad=True)
    with lib.no_grad():
        lib._foreach_copy_([w], [lib.ones(2)])
    return [lib._foreach_copy_(a, b), a, w, w._version] + [_error(f) for f in (
        lambda: lib._foreach_copy_([lib.zeros(2)], [lib.ones(3)]),
        lambda: lib._foreach_copy_([lib.zeros(2)], [lib.ones(2), lib.ones(2)]),
        lambda: lib._foreach_copy_([lib.zeros(2, requires_grad=True)], [lib.ones(2)]))]


def _num_threads(lib: Any) -> Any:
    before = lib.get_num_threads()
    try:
        lib.set_num_threads(1)
        return [lib.get_num_threads(), _error(lambda: lib.set_num_threads(0)),
                _error(lambda: lib.set_num_threads(1.5))]
    finally:
        lib.set_num_threads(before)


# ---- torch.take --------------------------------------------------------------------------------

def _take(lib: Any) -> Any:
    a = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    out = lib.take(a, lib.tensor([0, 5, -1, 0]))
    graded = _graded(lib, out, a)
    return WithArrays([graded.result, lib.take(a, lib.tensor([[0, 5], [1, 1]])),
                       a.take(lib.tensor(2)), lib.take(lib.tensor(3.0), lib.tensor([0, 0])),
                       lib.take(lib.ones(0), lib.tensor([], dtype=lib.long)),
                       lib.take(lib.arange(6).reshape(2, 3), lib.tensor([4]))]
                      + [_error(f) for f in (
                          lambda: lib.take(a, lib.tensor([6])), lambda: lib.take(a, lib.tensor([-7])),
                          lambda: lib.take(a, lib.tensor([0], dtype=lib.int32)),
                          lambda: lib.take(a, lib.tensor([0.0])), lambda: lib.take(a, [0]))],
                      graded.arrays)


# ---- corners of the new names: 0-d, empty, integer and bool inputs, float64, batches -----------

def _corners(lib: Any) -> Any:
    F = lib.nn.functional
    return [_error(f) for f in (
        lambda: F.interpolate(lib.arange(4).reshape(1, 1, 4), scale_factor=2),
        lambda: F.interpolate(lib.ones(1, 1, 4, dtype=lib.bool), scale_factor=2),
        lambda: F.interpolate(lib.ones(0, 1, 4), scale_factor=2),
        lambda: F.interpolate(lib.ones(2, 4, dtype=lib.long), scale_factor=2),
        lambda: F.interpolate(lib.ones(1, 2, 4, dtype=lib.long), size=3, scale_factor=2),
        lambda: lib.hypot(lib.tensor(3.0), lib.tensor(4.0)),
        lambda: lib.outer(lib.ones(0), lib.ones(2)),
        lambda: lib.det(lib.eye(3, dtype=lib.float64)[None].expand(2, 3, 3)),
        lambda: lib.inverse(lib.tensor([[4.0]])), lambda: lib.cdist(lib.ones(2, 0), lib.ones(3, 0)),
        lambda: lib.std_mean(lib.ones(2, 3), (0, 1), keepdim=True),
        lambda: lib.histogram(lib.tensor([1.0, float("nan")]), 2),
        lambda: lib.nn.PReLU()(lib.tensor([-1.0, 2.0], dtype=lib.float64)),
        lambda: lib.take(lib.ones(2, 2, dtype=lib.bool), lib.tensor([1])),
        lambda: lib.nn.ReflectionPad1d(1)(lib.arange(3.0).reshape(1, 3)))]


# ---- Binomial and Poisson (d2l's appendix on distributions) ------------------------------------

def _binomial_poisson(lib: Any) -> Any:
    """Their samplers (inversion and BTRS; products of uniforms and PTRS) draw PyTorch's numbers
    seed for seed, and leave the generator where PyTorch's leave it (the last rand)."""
    from importlib import import_module
    D = import_module(f"{lib.__name__}.distributions")
    Binomial = import_module(f"{lib.__name__}.distributions.binomial").Binomial
    Poisson = import_module(f"{lib.__name__}.distributions.poisson").Poisson
    lib.manual_seed(0)
    m, q = Binomial(10, lib.tensor(0.2)), Poisson(3.0)
    p = lib.tensor([0.2, 0.7], requires_grad=True)
    lp = D.Binomial(6, p).log_prob(lib.tensor([1.0, 5.0])).sum()
    lp.backward()
    r = lib.tensor([2.0, 0.5], requires_grad=True)
    lq = D.Poisson(r).log_prob(lib.tensor([1.0, 0.0])).sum()
    lq.backward()
    shown = [m, m.sample(sample_shape=(10, 10)), m.mean, m.variance, m.mode,
             D.Binomial(100, lib.tensor([0.3, 0.9])).sample((3,)),
             D.Binomial(50, lib.tensor(0.8, dtype=lib.float64)).sample((20,)),
             D.Binomial(5, logits=lib.tensor(0.5)), D.Binomial(5, logits=lib.tensor(0.5)).sample((4,)),
             D.Binomial(10, 0.2), q, q.sample((10, 10)),
             D.Poisson(lib.tensor([1.0, 25.0, 1000.0], dtype=lib.float64)).sample((3,)),
             q.log_prob(lib.tensor([0.0, 2.0, 5.0])), (q.mean, q.variance, q.mode, q.batch_shape),
             lp, p.grad, lq, r.grad, lib.rand(2)]
    return WithArrays(shown, (lp.detach().numpy(), p.grad.numpy(), lq.detach().numpy(),
                              r.grad.numpy()))


def _binomial_poisson_errors(lib: Any) -> Any:
    from importlib import import_module
    D = import_module(f"{lib.__name__}.distributions")
    return [_error(f) for f in (
        lambda: D.Binomial(-1, lib.tensor(0.2)), lambda: D.Binomial(10, lib.tensor(1.5)),
        lambda: D.Binomial(2.5, lib.tensor(0.5)),
        lambda: D.Binomial(10, lib.tensor(0.2)).log_prob(lib.tensor(11.0)),
        lambda: D.Binomial(10, lib.tensor(0.2), lib.tensor(0.1)), lambda: D.Poisson(-1.0),
        lambda: D.Poisson(3.0).log_prob(lib.tensor(1.5)),
        lambda: D.Poisson(3.0).log_prob(lib.tensor(-1.0)))]


# ---- PackedSequence: pack_padded_sequence, pad_packed_sequence, pack_sequence, RNNs on them ---

def _packed_sequences(lib: Any) -> Any:
    from importlib import import_module
    rnn = import_module(f"{lib.__name__}.nn.utils.rnn")
    x = lib.arange(12.0).reshape(4, 3, 1).requires_grad_()
    packed = rnn.pack_padded_sequence(x, [4, 2, 1])
    unsorted = rnn.pack_padded_sequence(x, lib.tensor([1, 4, 2]), enforce_sorted=False)
    padded, lengths = rnn.pad_packed_sequence(unsorted)
    _graded(lib, padded, x)
    return WithArrays([packed, unsorted, padded, lengths, x.grad,
                       rnn.pad_packed_sequence(unsorted, batch_first=True, total_length=5)[0].shape,
                       rnn.pack_sequence([lib.ones(2, 1), lib.ones(3, 1)], enforce_sorted=False)]
                      + [_error(f) for f in (
                          lambda: rnn.pack_padded_sequence(x, [1, 4, 2]),
                          lambda: rnn.pack_padded_sequence(x, [4, 2, 0]),
                          lambda: rnn.pack_sequence([lib.ones(2, 1), lib.ones(3, 1)]),
                          lambda: rnn.pad_packed_sequence(packed, total_length=2))],
                      (x.grad.numpy(),))


def _rnns_on_packed_sequences(lib: Any) -> Any:
    """Each layer steps only the sequences still running (hunkim's 13_4_pack_pad); float32
    agrees to rounding, as the RNNs do on padded input."""
    from importlib import import_module
    rnn = import_module(f"{lib.__name__}.nn.utils.rnn")
    lib.manual_seed(0)
    shown, arrays = [], []
    for cls, options in ((lib.nn.LSTM, {}), (lib.nn.GRU, {"num_layers": 2}),
                         (lib.nn.RNN, {"bidirectional": True}),
                         (lib.nn.LSTM, {"bidirectional": True, "num_layers": 2,
                                        "batch_first": True})):
        layer = cls(3, 4, **options)
        batch_first = options.get("batch_first", False)
        x = lib.randn(5, 3, 3, requires_grad=True)
        lengths = [3, 3, 2, 1, 1] if batch_first else [5, 3, 2]
        for enforce_sorted in (True, False):
            given = lengths if enforce_sorted else lengths[::-1]
            packed = rnn.pack_padded_sequence(x, given, batch_first=batch_first,
                                              enforce_sorted=enforce_sorted)
            out, state = layer(packed)
            padded, counts = rnn.pad_packed_sequence(out, batch_first=batch_first)
            h = state[0] if isinstance(state, tuple) else state
            x.grad = None
            ((padded * padded).sum() + (h * h).sum()).backward()
            shown.append((type(out).__name__, out.data.grad_fn.name(), h.grad_fn.name(),
                          padded.shape, counts, out.batch_sizes, out.sorted_indices))
            arrays += [padded.detach().numpy(), h.detach().numpy(), x.grad.numpy()]
    return WithArrays(shown, tuple(arrays))


# ---- nn.PixelShuffle / PixelUnshuffle (pytorch/examples' super_resolution) ---------------------

def _pixel_shuffle(lib: Any) -> Any:
    F = lib.nn.functional
    x = lib.arange(32.0).reshape(2, 4, 2, 2).requires_grad_()
    up = _graded(lib, lib.nn.PixelShuffle(2)(x), x)
    image = lib.arange(32.0).reshape(2, 1, 4, 4).requires_grad_()
    down = _graded(lib, F.pixel_unshuffle(image, 2), image)
    return WithArrays([up.result, down.result, lib.nn.PixelShuffle(2), lib.nn.PixelUnshuffle(2),
                       F.pixel_shuffle(lib.arange(8).reshape(2, 4, 1, 1), 2),
                       F.pixel_shuffle(lib.ones(3, 9, 1, 2, dtype=lib.float64), 3).shape]
                      + [_error(f) for f in (
                          lambda: F.pixel_shuffle(lib.ones(1, 3, 2, 2), 2),
                          lambda: F.pixel_shuffle(lib.ones(3, 2), 2),
                          lambda: F.pixel_unshuffle(lib.ones(1, 1, 3, 2), 2),
                          lambda: F.pixel_shuffle(lib.ones(1, 4, 2, 2), 0))],
                      up.arrays + down.arrays)


CASES = {f.__name__.lstrip("_"): f for f in (
    _prelu, _prelu_per_channel, _prelu_shapes, _prelu_errors, _padding_layers, _padding_errors,
    _pool1d, _pool1d_corners, _cosine_similarity, _cosine_embedding_loss,
    _cosine_embedding_errors, _categorical_reinforce, _categorical_logits, _categorical_errors,
    _normal, _normal_errors, _multinomial, _multinomial_errors, _orthogonal, _orthogonal_errors,
    _random_, _refused_draws_leave_the_generator, _std_mean_var_mean, _std_mean_corners,
    _det_inverse, _det_inverse_errors, _outer_hypot, _outer_hypot_errors, _cdist_pair_by_pair,
    _cdist_by_matrix_product, _cdist_shapes_and_errors, _interpolate_nearest, _interpolate_errors,
    _histogram, _foreach_copy, _num_threads, _take, _corners, _binomial_poisson,
    _binomial_poisson_errors, _packed_sequences, _rnns_on_packed_sequences, _pixel_shuffle)}


# Gradients that add several contributions per element in another order than PyTorch's, in
# ops that were there before (x * x's MulBackward0 twice into one leaf; the reflected border's
# and the overlapping windows' sums; softmax's and logsumexp's backwards): the last bit may
# differ, so they are compared within rtol.
RTOL = {"cosine_embedding_loss": 1e-6, "padding_layers": 1e-6, "pool1d": 1e-6,
        "categorical_reinforce": 1e-6, "categorical_logits": 1e-12,
        "orthogonal": 1e-5,  # (numpy's QR of float32 is in double precision; LAPACK's single)
        "std_mean_var_mean": 1e-14,  # (PyTorch's Welford mean of doubles rounds otherwise)
        "det_inverse": 1e-10,
        "cdist_pair_by_pair": 1e-4, "cdist_by_matrix_product": 1e-4,  # (float32 sums cancel)
        "rnns_on_packed_sequences": 1e-4}  # (as RNNs on padded input: float32 to rounding)  # (numpy's LAPACK calls are not PyTorch's)


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
                 "padding", "pixelshuffle", "pooling", "rnn", "sparse", "upsampling"):
        theirs = getattr(torch.nn.modules, file)
        named = {n for n, v in vars(getattr(ours, file)).items() if isinstance(v, type)}
        assert named, file
        for name in named:
            assert getattr(theirs, name) is getattr(torch.nn, name), (file, name)
            assert getattr(getattr(ours, file), name) is getattr(minigrad.nn, name)
        expected = {n for n, v in vars(theirs).items() if isinstance(v, type)
                    and v.__module__ == theirs.__name__ and hasattr(minigrad.nn, n)}
        assert expected <= named, (file, expected - named)
