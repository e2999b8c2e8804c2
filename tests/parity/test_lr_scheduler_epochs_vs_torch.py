"""`scheduler.step(epoch)` (deprecated, still in older tutorials) against real PyTorch: with an
epoch given, a scheduler that has a closed form (StepLR, MultiStepLR, ExponentialLR, LinearLR,
CosineAnnealingLR) sets lr from it, a function of the epoch, not from the lr before; steps
without an epoch then go on from there. Skipped without PyTorch."""
from __future__ import annotations

import warnings

import pytest

import minigrad as mg

SCHEDULERS = {
    "StepLR": lambda L, o: L.optim.lr_scheduler.StepLR(o, 2, 0.1),
    "MultiStepLR": lambda L, o: L.optim.lr_scheduler.MultiStepLR(o, [2, 4, 4], 0.1),
    "ExponentialLR": lambda L, o: L.optim.lr_scheduler.ExponentialLR(o, 0.9),
    "LinearLR": lambda L, o: L.optim.lr_scheduler.LinearLR(o, 0.5, total_iters=4),
    "CosineAnnealingLR": lambda L, o: L.optim.lr_scheduler.CosineAnnealingLR(o, 10, 0.001),
    "LambdaLR": lambda L, o: L.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1)),
}


def _lrs(lib, name: str) -> list:
    params = [lib.nn.Parameter(lib.ones(1)), lib.nn.Parameter(lib.ones(1))]
    opt = lib.optim.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.2}], lr=0.05)
    scheduler = SCHEDULERS[name](lib, opt)
    seen = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for epoch in (None, 5, None, 3, None, 12, 0):
            opt.step()
            scheduler.step(epoch) if epoch is not None else scheduler.step()
            seen.append((scheduler.last_epoch, scheduler.get_last_lr()))
    return seen + [sorted({str(w.message)[:60] for w in caught})]


@pytest.mark.parametrize("name", SCHEDULERS)
def test_step_with_an_epoch_as_torch(torch, name):
    assert _lrs(mg, name) == _lrs(torch, name)
