"""Names added by how often public tutorials use them (scripts/api_coverage.py), against
PyTorch 2.13: the same values (random draws included, seed for seed), dtypes, shapes, printed
text and error messages."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from harness.parity import WithArrays, assert_same_as_torch


def _error(run: Callable[[], Any]) -> str:
    try:
        return repr(run())
    except Exception as error:
        return f"{type(error).__name__}: {error}"


# ---- torch.multinomial (makemore samples names with it) ------------------------------------

def _makemore_sampling(lib: Any) -> Any:
    """Karpathy's makemore bigram loop: one category at a time from a row of counts."""
    g = lib.Generator().manual_seed(2147483647)
    counts = lib.randint(0, 50, (27, 27), generator=g).float() + 1
    p = counts / counts.sum(1, keepdim=True)
    names = []
    for _ in range(8):
        out, ix = [], 0
        while True:
            ix = lib.multinomial(p[ix], num_samples=1, replacement=True, generator=g).item()
            out.append(ix)
            if ix == 0 or len(out) > 30:
                break
        names.append(out)
    return names


def _draws_of_each_kind(lib: Any) -> Any:
    lib.manual_seed(42)
    p = lib.rand(5, 27)
    p = p / p.sum(1, keepdim=True)
    draws = [lib.multinomial(p, 1, True), lib.multinomial(p[0], 20, replacement=True),
             p.multinomial(5), lib.multinomial(p.double(), 3),
             lib.multinomial(p.double(), 30, True),
             lib.multinomial(lib.tensor([0.0, 0.0, 1.0]), 2),
             lib.multinomial(lib.tensor([0.2, 0.0, 0.8]), 10, replacement=True),
             lib.multinomial(lib.tensor([3.0, 1.0]), 4, True),  # weights, not probabilities
             lib.ones(5).exponential_(), lib.ones(3, dtype=lib.float64).exponential_(2.0)]
    return WithArrays(draws, tuple(d.numpy() for d in draws))


def _multinomial_errors(lib: Any) -> Any:
    return [_error(f) for f in (
        lambda: lib.multinomial(lib.tensor([1, 2]), 1),
        lambda: lib.multinomial(lib.tensor([0.5, 0.5]), 3),
        lambda: lib.multinomial(lib.tensor([0.5, float("nan")]), 1),
        lambda: lib.multinomial(lib.tensor([0.5, -1.0]), 2, True),
        lambda: lib.multinomial(lib.tensor([0.5, float("inf")]), 2, True),
        lambda: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
        lambda: lib.multinomial(lib.tensor([0.0, 0.0]), 2, True),
        lambda: lib.multinomial(lib.tensor(0.5), 1),
        lambda: lib.multinomial(lib.ones(2, 2, 2), 1),
        lambda: lib.multinomial(lib.tensor([0.5]), 0),
        lambda: lib.multinomial(lib.tensor([0.5]), 1.0),
        lambda: lib.ones(3, dtype=lib.int64).exponential_(),
        lambda: lib.ones(3).exponential_(0), lambda: lib.ones(3).exponential_(-0.5))]


# ---- addcdiv (Adam written by hand: p.addcdiv_(m, v.sqrt() + eps, value=-lr)) -------------

def _addcdiv(lib: Any) -> Any:
    a = lib.tensor([1.0, -2.0, 0.5], requires_grad=True)
    t1 = lib.tensor([0.3, 1.7, -2.1], requires_grad=True)
    t2 = lib.tensor([0.7, -1.3, 3.1], requires_grad=True)
    out = a.addcdiv(t1, t2, value=-0.1)
    (out * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
    p = lib.tensor([1.0, 2.0], dtype=lib.float64)
    p.addcdiv_(lib.tensor([0.1, 0.2], dtype=lib.float64), lib.tensor([3.0, 7.0], dtype=lib.float64))
    results = [out, out.grad_fn.name(), a.grad, t1.grad, t2.grad, p,
               lib.addcdiv(lib.ones(2), lib.ones(2), lib.zeros(2), value=0.5),
               lib.ones(2).addcdiv(lib.ones(2), lib.ones(2, dtype=lib.float64)),
               lib.ones(2, 1).addcdiv(lib.ones(3), lib.ones(2, 1))]
    return WithArrays(results, (out.detach().numpy(), t1.grad.numpy(), t2.grad.numpy()))


def _addcdiv_errors(lib: Any) -> Any:
    ints = lib.ones(2, dtype=lib.int64)
    return [_error(f) for f in (
        lambda: ints.addcdiv(ints, ints), lambda: lib.ones(2).addcdiv(ints, ints),
        lambda: lib.ones(2).addcdiv(lib.ones(2), lib.ones(3)),
        lambda: lib.ones(2).addcdiv(lib.ones(2), 2.0), lambda: lib.addcdiv(lib.ones(2), 2.0, 1),
        lambda: lib.ones(2).addcdiv_(lib.ones(2, 2), lib.ones(2)),
        lambda: lib.ones(2).addcmul(lib.ones(2), None),
        lambda: lib.ones(2, requires_grad=True).addcdiv_(lib.ones(2), lib.ones(2)))]


# ---- the cyclic learning-rate schedulers (dvgodoy's PyTorchStepByStep, chapter 6) -----------

def _schedule(lib: Any, optimizer: str, make: Any, steps: int = 25, epochs: Any = None) -> Any:
    p = lib.nn.Parameter(lib.ones(2))
    opt = (lib.optim.SGD([p], lr=0.1, momentum=0.9) if optimizer == "sgd"
           else lib.optim.Adam([p], lr=0.1))
    scheduler, seen = make(lib.optim.lr_scheduler, opt), []
    for i in range(steps):
        opt.step()
        scheduler.step() if epochs is None else scheduler.step(epochs[i])
        group = opt.param_groups[0]
        seen.append((scheduler.get_last_lr(), group.get("momentum"), group.get("betas")))
    return seen


def _cyclic_lr(lib: Any) -> Any:
    return [_schedule(lib, "sgd", lambda s, o: s.CyclicLR(o, 0.001, 0.1, step_size_up=4)),
            _schedule(lib, "sgd", lambda s, o: s.CyclicLR(o, 0.001, 0.1, step_size_up=3,
                                                          step_size_down=5, mode="triangular2")),
            _schedule(lib, "adam", lambda s, o: s.CyclicLR(o, 0.001, 0.1, step_size_up=3,
                                                           mode="exp_range", gamma=0.9)),
            _schedule(lib, "sgd", lambda s, o: s.CyclicLR(
                o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 0.5 ** x,
                scale_mode="iterations", cycle_momentum=False))]


def _one_cycle_lr(lib: Any) -> Any:
    return [_schedule(lib, "sgd", lambda s, o: s.OneCycleLR(o, max_lr=0.5, total_steps=30)),
            _schedule(lib, "adam", lambda s, o: s.OneCycleLR(
                o, max_lr=0.5, epochs=3, steps_per_epoch=10, anneal_strategy="linear",
                three_phase=True))]


def _cosine_annealing_warm_restarts(lib: Any) -> Any:
    return [_schedule(lib, "sgd", lambda s, o: s.CosineAnnealingWarmRestarts(
                o, T_0=4, T_mult=2, eta_min=0.001)),
            _schedule(lib, "sgd", lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=5)),
            _schedule(lib, "sgd", lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2),
                      steps=8, epochs=[0.5, 1.5, 2.5, 3.0, 7.5, 10, 2, 30])]


def _cyclic_scheduler_errors(lib: Any) -> Any:
    s = lib.optim.lr_scheduler

    def sgd() -> Any:
        return lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1, momentum=0.9)

    one = s.OneCycleLR(opt := sgd(), 0.1, total_steps=2)
    for _ in range(2):
        opt.step()
        one.step()
    return [_error(f) for f in (
        lambda: s.CyclicLR(sgd(), 0.1, 1, mode="x"),
        lambda: s.CyclicLR(lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))]), 0.1, 1),
        lambda: s.CyclicLR(sgd(), [0.1, 0.2], 1), lambda: s.OneCycleLR(sgd(), 0.1),
        lambda: s.OneCycleLR(sgd(), 0.1, total_steps=0),
        lambda: s.OneCycleLR(sgd(), 0.1, 10, pct_start=1),
        lambda: s.OneCycleLR(sgd(), 0.1, 10, anneal_strategy="x"),
        lambda: s.CosineAnnealingWarmRestarts(sgd(), 0),
        lambda: s.CosineAnnealingWarmRestarts(sgd(), 2, T_mult=0), one.step)]


# ---- WeightedRandomSampler (class balancing: dvgodoy's chapter 5, Zero to Mastery) ---------

def _weighted_random_sampler(lib: Any) -> Any:
    data = lib.utils.data
    lib.manual_seed(0)
    s = data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, replacement=True)
    seen: list = [list(s), list(s), len(s)]
    seen.append(list(data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, False,
                                                generator=lib.Generator().manual_seed(3))))
    x, y = lib.arange(12.0).reshape(6, 2), lib.tensor([0, 1, 0, 1, 1, 0])
    weights = 1.0 / lib.bincount(y).float()
    sampler = data.WeightedRandomSampler(weights[y], num_samples=len(y),
                                         generator=lib.Generator().manual_seed(42))
    seen += list(data.DataLoader(data.TensorDataset(x, y), batch_size=4, sampler=sampler))
    return seen + [_error(f) for f in (
        lambda: data.WeightedRandomSampler([1.0], 0),
        lambda: data.WeightedRandomSampler([1.0], 2, replacement=1),
        lambda: data.WeightedRandomSampler([[1.0]], 2),
        lambda: list(data.WeightedRandomSampler([1.0, 2.0], 3, False)))]


# ---- vstack and hstack, and cat's own errors ----------------------------------------------

def _vstack_hstack(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    c = lib.ones(2, 2)
    v, h = lib.vstack([a, a * 2]), lib.hstack([a, b])
    (v.sum() + h.pow(2).sum()).backward()
    graph = [[node.name() for node, _ in t.grad_fn.next_functions]
             for t in (v, h, lib.vstack((b, b)))]
    return [v, h, graph, a.grad, b.grad, lib.hstack([c, c]), lib.vstack([c, a]),
            lib.vstack([lib.ones(2, dtype=lib.int64), a]).dtype,
            lib.cat([lib.ones(0), lib.ones(2, 3)]), lib.cat([lib.ones(0), lib.ones(3)])]


def _stacking_errors(lib: Any) -> Any:
    a, c = lib.ones(2), lib.ones(2, 2)
    return [_error(f) for f in (
        lambda: lib.vstack([]), lambda: lib.hstack([]), lambda: lib.vstack([a, lib.ones(3)]),
        lambda: lib.vstack(a), lambda: lib.hstack([a, c]),
        lambda: lib.cat([lib.ones(2, 3), lib.ones(3, 4)], 1),
        lambda: lib.cat([lib.ones(2, 3), lib.ones(2, 3, 1)]),
        lambda: lib.cat([lib.ones(2, 3), lib.ones(2, 4)], -2))]


# ---- the bitwise functions' arguments --------------------------------------------------------

def _bitwise_arguments(lib: Any) -> Any:
    a, b = lib.tensor([1, 2, 3]), lib.tensor([True, False, True])
    return [lib.bitwise_xor(b, True), lib.bitwise_xor(3, a), ~a, ~b, a.bitwise_or(b)] + [
        _error(f) for f in (
            lambda: lib.bitwise_xor(lib.ones(2), 1), lambda: lib.bitwise_not(lib.ones(2)),
            lambda: ~lib.ones(2), lambda: a.bitwise_xor(1.5), lambda: a.bitwise_xor(None),
            lambda: a.bitwise_xor([1]), lambda: lib.bitwise_and(a, None),
            lambda: lib.bitwise_not(None), lambda: lib.bitwise_xor(1.5, a))]


CASES = {f.__name__.lstrip("_"): f for f in (
    _bitwise_arguments, _vstack_hstack, _stacking_errors, _weighted_random_sampler,
    _makemore_sampling, _draws_of_each_kind, _multinomial_errors, _addcdiv, _addcdiv_errors,
    _cyclic_lr, _one_cycle_lr, _cosine_annealing_warm_restarts, _cyclic_scheduler_errors)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_torch(name: str, torch: Any) -> None:
    assert_same_as_torch(CASES[name], torch)


# ---- torch.version (session 7) ---------------------------------------------------------------

def test_version_of_a_cpu_build(torch: Any) -> None:
    assert_same_as_torch(lambda lib: [lib.version.cuda, lib.version.hip, lib.version.debug],
                         torch)
