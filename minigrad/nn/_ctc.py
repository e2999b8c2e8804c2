"""ctc_loss: the negative log-likelihood of a target sequence under per-step class
log-probabilities, summed over every alignment (Graves et al. 2006), by PyTorch's CPU kernel's
recursions: alpha forward in time over the target with blanks between its labels, beta
backward, each step a log-sum-exp of up to three predecessors; the gradient
exp(lp) - exp(log Σ alpha·beta + nll - lp), times the loss's own gradient. float32 exp and log
are correctly rounded (C's expf and logf, which PyTorch's scalar kernel calls)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.function import Function
from ..ops.selection import where
from ..tensor import Tensor, tensor_of
from ._loss_arguments import check_reduction
from ._margin_kernels import _NotDifferentiable


def _exp(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(x.astype(np.float64)).astype(x.dtype)


def _log(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x.astype(np.float64)).astype(x.dtype)


def _log_add(*terms: np.ndarray) -> np.ndarray:
    """log(Σ exp(term - m)) + m, m the largest (0 where all are -inf), in the dtype."""
    top = terms[0]
    for term in terms[1:]:
        top = np.where(term > top, term, top)
    top = np.where(top == -np.inf, top.dtype.type(0), top)
    total = _exp(terms[0] - top)
    for term in terms[1:]:
        total = total + _exp(term - top)
    return _log(total) + top


def _primes(target: np.ndarray, blank: int) -> np.ndarray:
    """The target with a blank before, between and after its labels."""
    primes = np.full(2 * len(target) + 1, blank, np.int64)
    primes[1::2] = target
    return primes


def _alpha(lp: np.ndarray, primes: np.ndarray) -> np.ndarray:
    neginf = lp.dtype.type(-np.inf)
    la = np.full((lp.shape[0], len(primes)), neginf, lp.dtype)
    la[0, :2] = lp[0, primes[:2]]
    skip = np.zeros(len(primes), bool)  # s may come from s - 2: a label unlike the one before
    skip[2:] = primes[2:] != primes[:-2]
    one, two = np.full_like(la[0], neginf), np.full_like(la[0], neginf)
    for t in range(1, lp.shape[0]):
        before = la[t - 1]
        one[1:], two[2:] = before[:-1], before[:-2]
        la[t] = _log_add(before, one, np.where(skip, two, neginf)) + lp[t, primes]
    return la


def _beta_sums(lp: np.ndarray, primes: np.ndarray, la: np.ndarray) -> np.ndarray:
    """Σ over the states s of each label of alpha·beta, in log space, as the kernel adds them
    (s from the last down)."""
    neginf = lp.dtype.type(-np.inf)
    steps, states = la.shape
    lb = np.full_like(la, neginf)
    lb[-1, -1] = lp[-1, primes[-1]]
    if states > 1:
        lb[-1, -2] = lp[-1, primes[-2]]
    skip = np.zeros(states, bool)  # s may go on to s + 2
    skip[:-2] = primes[:-2] != primes[2:]
    one, two = np.full_like(lb[0], neginf), np.full_like(lb[0], neginf)
    for t in range(steps - 2, -1, -1):
        after = lb[t + 1]
        one[:-1], two[:-2] = after[1:], after[2:]
        lb[t] = _log_add(after, one, np.where(skip, two, neginf)) + lp[t, primes]
    sums = np.full(lp.shape, neginf, lp.dtype)
    sums[-1, primes[-1]] = la[-1, -1] + lb[-1, -1]
    if states > 1:
        sums[-1, primes[-2]] = la[-1, -2] + lb[-1, -2]
    for s in range(states - 1, -1, -1):
        both = la[:-1, s] + lb[:-1, s]
        column = sums[:-1, primes[s]]
        sums[:-1, primes[s]] = np.where(column == neginf, both, _log_add(column, both))
    return sums


class CtcLoss(Function):
    """The per-sequence negative log-likelihood; d lp = exp(lp) - exp(Σαβ + nll - lp), times
    each sequence's gradient (zero for a sequence whose loss is infinite, with zero_infinity)"""
    node_name = "CtcLossBackward0"

    @staticmethod
    def forward(ctx, log_probs, sequences, blank, zero_infinity):
        data = log_probs._data
        losses = np.empty(data.shape[1], data.dtype)
        ctx.pieces = []
        for b, (target, length) in enumerate(sequences):
            lp = data[:length, b]
            primes = _primes(target, blank)
            la = _alpha(lp, primes)
            if len(target) == 0:
                losses[b] = -la[-1, 0]
            else:
                losses[b] = -_log_add(la[-1, -1:], la[-1, -2:-1])[0]
            ctx.pieces.append((lp, primes, la, length))
        ctx.shape, ctx.zero_infinity, ctx.losses = data.shape, zero_infinity, losses
        ctx.save_for_backward(log_probs)
        return tensor_of(losses)

    @staticmethod
    def backward(ctx, grad):
        pieces, shape, losses = ctx.pieces, ctx.shape, ctx.losses

        def compute(g: np.ndarray) -> np.ndarray:
            out = np.zeros(shape, losses.dtype)
            for b, (lp, primes, la, length) in enumerate(pieces):
                if ctx.zero_infinity and losses[b] == np.inf:
                    continue
                sums = _beta_sums(lp, primes, la)
                out[:length, b] = (_exp(lp) - _exp(sums + losses[b] - lp)) * g[b]
            return out
        (log_probs,) = ctx.saved_tensors
        return CtcLossBackward.apply(log_probs, (grad, compute)), None, None, None


class CtcLossBackward(_NotDifferentiable):
    op = "_ctc_loss_backward"


def _lengths(lengths: Any) -> list:
    if isinstance(lengths, Tensor):
        return [int(n) for n in lengths._data.reshape(-1)]
    return [int(n) for n in lengths]


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """log_probs: (T, N, C) (or (T, C) for one sequence); targets: (N, S) padded, or the
    sequences one after the other; the lengths: one per sequence."""
    check_reduction(reduction)
    batched = log_probs.ndim == 3
    if not batched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0) if targets.ndim == 1 else targets
    input_lengths, target_lengths = _lengths(input_lengths), _lengths(target_lengths)
    steps, batch, classes = log_probs.shape
    if blank >= classes or blank < 0:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    labels = targets._data.astype(np.int64)
    sequences, offset = [], 0
    for b in range(batch):
        if input_lengths[b] > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got "
                               f"value {input_lengths[b]} (while checking arguments for "
                               "ctc_loss_allocate_outputs)")
        if targets.ndim == 1:
            target, offset = labels[offset:offset + target_lengths[b]], offset + target_lengths[b]
        else:
            target = labels[b, :target_lengths[b]]
        sequences.append((target, input_lengths[b]))
    losses = CtcLoss.apply(log_probs, sequences, blank, zero_infinity)
    if zero_infinity:  # an impossible alignment's loss (and gradient) taken as 0
        losses = where(losses == float("inf"), tensor_of(np.zeros((), losses._data.dtype)), losses)
    if reduction == "mean":
        lengths = tensor_of(np.maximum(np.asarray(target_lengths, losses._data.dtype), 1))
        return (losses / lengths).mean()
    if reduction == "sum":
        return losses.sum()
    return losses if batched else losses.squeeze(0)
