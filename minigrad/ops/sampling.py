"""Random draws that depend on a tensor, with PyTorch's numbers: bernoulli(p) and
bernoulli_(p) (its CPU kernel draws one uniform number per element from the generator, in the
precision of the probabilities, float64 for a number p, and gives 1 where it is below p), and
multinomial(p, n) (PyTorch's two CPU algorithms: see `multinomial`)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..random import _pick
from ..tensor import Tensor, tensor_of
from .operands import zero_gradient


class Bernoulli(Function):
    """0 or 1, drawn: no gradient flows back to the probabilities (zeros, as in PyTorch)"""
    node_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx, p, drawn):
        return tensor_of(drawn.astype(p._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return zero_gradient(grad), None


def draw(shape: tuple, p: Any, dtype: Any, generator: Any) -> np.ndarray:
    """Where a uniform number (of `dtype`'s precision) falls below p: the 1s of a draw."""
    return _pick(generator).uniform(tuple(shape), 0.0, 1.0, dtype) < p


def bernoulli(input: Tensor, p: float | None = None, *, generator: Any = None) -> Tensor:
    """1 with probability p (each element's own, from `input`; or the number p), else 0."""
    if p is not None:
        return tensor_of(draw(input.shape, p, np.float64, generator).astype(input._data.dtype))
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return Bernoulli.apply(input, draw(input.shape, input._data, input._data.dtype, generator))


def random_values(t: Tensor, low: int, high: int | None, generator: Any) -> np.ndarray:
    """What `t.random_(low, high)` writes into t: PyTorch's random_from_to (a word modulo the
    range); with no range, its uniform_int over the dtype's whole range of exact integers (a
    64-bit word for double and int64, a 32-bit one otherwise, modulo 2**digits + 1 for a float,
    the largest value + 1 for an integer, the lowest bit for a bool)."""
    gen, count, dtype = _pick(generator), t.numel(), t._data.dtype
    if high is not None:
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={low} >= to={high}")
        return gen.integers(count, low, high).astype(dtype).reshape(t.shape)
    if dtype in (np.float64, np.int64):
        words = gen._words(2 * count).reshape(count, 2)
        words = (words[:, 0] << np.uint64(32)) | words[:, 1]
    else:
        words = gen._words(count)
    if dtype == np.bool_:
        return (words & np.uint64(1)).astype(dtype).reshape(t.shape)
    if dtype.kind == "f":
        span = (1 << np.finfo(dtype).nmant + 1) + 1
    else:
        span = int(np.iinfo(dtype).max) + 1
    return (words % np.uint64(span)).astype(dtype).reshape(t.shape)


def exponential(t: Tensor, rate: float, generator: Any) -> np.ndarray:
    """What `t.exponential_(rate)` writes into t."""
    if not t.dtype.is_floating_point:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified "
                           f"{t.dtype.scalar_name}")
    if not rate > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={rate:g}")
    return _pick(generator).exponential(t.shape, float(rate), t._data.dtype)


def multinomial(p: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Any = None) -> Tensor:
    """`num_samples` categories drawn from each row of `p` (weights, not necessarily summing to
    1). As PyTorch's CPU code: one sample, or none put back, is the largest p / q for q drawn
    from Exp(1) (the Gumbel-max trick: q = p.exponential_(); argmax or topk); several put back
    are found by a binary search in the row's float cumulative sums, one double uniform each."""
    if not isinstance(num_samples, int) or isinstance(num_samples, bool):
        raise TypeError(f"multinomial(): argument 'num_samples' (position 1) must be int, not "
                        f"{type(num_samples).__name__}")
    if not 0 < p.ndim <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not p.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{p.dtype.scalar_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = p.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    rows = p._data.reshape(-1, categories)
    source = _pick(generator)
    with np.errstate(divide="ignore", invalid="ignore"):
        if not replacement or num_samples == 1:
            if not (rows.max() < np.inf and rows.min() >= 0):  # nan fails both
                raise RuntimeError("probability tensor contains either `inf`, `nan` or element "
                                   "< 0")
            if (rows.sum(axis=1) == 0).any():
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            ratio = rows / source.exponential(rows.shape, 1.0, rows.dtype)
            if num_samples == 1:
                picked = ratio.argmax(axis=1)[:, None]
            else:  # largest first (ties: the lower index)
                picked = np.argsort(-ratio, axis=1, kind="stable")[:, :num_samples]
        else:
            picked = np.stack([_search(row, num_samples, source) for row in rows])
    return tensor_of(picked.astype(np.int64).reshape(*p.shape[:-1], num_samples))


def _search(row: np.ndarray, num_samples: int, source: Any) -> np.ndarray:
    """Draws put back, for one row: PyTorch's multinomial_with_replacement_apply."""
    if (row < 0).any():
        raise RuntimeError("invalid multinomial distribution (encountering probability entry "
                           "< 0)")
    if not np.isfinite(row).all():
        raise RuntimeError("invalid multinomial distribution (encountering probability entry = "
                           "infinity or NaN)")
    cumulative = np.cumsum(row, dtype=row.dtype)  # summed in order, in the row's precision
    total = cumulative[-1]
    if not total > 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cumulative = cumulative / total
    cumulative[-1] = 1
    uniforms = source.uniform((num_samples,), 0.0, 1.0, np.float64)
    return np.searchsorted(cumulative.astype(np.float64), uniforms, side="left")
