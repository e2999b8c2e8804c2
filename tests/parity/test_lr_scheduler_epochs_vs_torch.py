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


def _new_schedulers(lib) -> list:
    """MultiplicativeLR, ConstantLR, PolynomialLR, SequentialLR and ChainedScheduler (the
    schedulers' docstring examples: tests/corpus/pytorch_lr_scheduler_examples.py): their lrs
    over epochs, with step(epoch) where they have a closed form, a SequentialLR restored from
    its state_dict, and their errors."""
    L = lib.optim.lr_scheduler

    def opt():
        return lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.05)

    seen = []
    for make in (lambda o: L.MultiplicativeLR(o, lambda e: 0.9),
                 lambda o: L.ConstantLR(o, factor=0.5, total_iters=3),
                 lambda o: L.PolynomialLR(o, total_iters=4, power=2.0),
                 lambda o: L.SequentialLR(o, [L.ConstantLR(o, 0.1, 2), L.ExponentialLR(o, 0.5),
                                              L.StepLR(o, 2)], milestones=[3, 5]),
                 lambda o: L.ChainedScheduler([L.ConstantLR(o, 0.1, 2), L.ExponentialLR(o, 0.5)])):
        o = opt()
        scheduler = make(o)
        for _ in range(7):
            o.step()
            scheduler.step()
            seen.append(scheduler.get_last_lr())
    for make in (lambda o: L.ConstantLR(o, 0.5, 3), lambda o: L.PolynomialLR(o, 4, 2.0)):
        o = opt()
        scheduler = make(o)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scheduler.step(2)
        seen.append(scheduler.get_last_lr())
    o = opt()
    first = L.SequentialLR(o, [L.ConstantLR(o, 0.1, 2), L.ExponentialLR(o, 0.5)], [2])
    for _ in range(3):
        o.step()
        first.step()
    o2 = opt()
    second = L.SequentialLR(o2, [L.ConstantLR(o2, 0.1, 2), L.ExponentialLR(o2, 0.5)], [2])
    second.load_state_dict(first.state_dict())
    o2.step()
    second.step()
    seen.append((second.last_epoch, second.get_last_lr(), sorted(first.state_dict())))
    o = opt()
    for attempt in (lambda: L.ConstantLR(o, factor=1.5),
                    lambda: L.MultiplicativeLR(o, 0.9),
                    lambda: L.SequentialLR(o, [L.ConstantLR(o)], milestones=[1]),
                    lambda: L.SequentialLR(o, [L.ReduceLROnPlateau(o)], milestones=[]),
                    lambda: L.ChainedScheduler([])):
        try:
            attempt()
        except (TypeError, ValueError) as error:
            seen.append((type(error).__name__, str(error)))
    return seen


def test_the_docstring_schedulers_as_torch(torch):
    assert _new_schedulers(mg) == _new_schedulers(torch)
