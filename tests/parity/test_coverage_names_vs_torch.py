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


CASES = {f.__name__.lstrip("_"): f for f in (
    _makemore_sampling, _draws_of_each_kind, _multinomial_errors, _addcdiv, _addcdiv_errors)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_torch(name: str, torch: Any) -> None:
    assert_same_as_torch(CASES[name], torch)
