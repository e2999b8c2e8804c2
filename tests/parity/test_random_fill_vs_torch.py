"""`Tensor.random_` (the loss modules' docstring examples draw targets with it:
tests/corpus/pytorch_nn_loss_examples.py) against real PyTorch: the same numbers from the same
seed for `random_(to)`, `random_(from, to)` (a 64-bit word past 2**32) and `random_()` (each
dtype's whole range), with a Generator, and PyTorch's errors. Skipped without PyTorch."""
from __future__ import annotations

import minigrad as mg


def _draws(lib) -> list:
    lib.manual_seed(0)
    seen = [lib.empty(3, dtype=lib.long).random_(5).tolist(),
            lib.empty(3).random_(2).tolist(),
            lib.empty(4).random_(-3, 3).tolist(),
            lib.empty(2, dtype=lib.long).random_(0, 1 << 40).tolist()]
    for dtype in (lib.float32, lib.float64, lib.int64, lib.int32, lib.uint8):
        seen.append(lib.empty(3, dtype=dtype).random_().tolist())
    g = lib.Generator().manual_seed(3)
    seen.append(lib.zeros(2, 2).random_(10, generator=g).tolist())
    seen.append(lib.rand(2).tolist())  # the default generator moved on as PyTorch's
    for attempt in (lambda: lib.zeros(2).random_(3, 1),
                    lambda: lib.zeros(2, requires_grad=True).random_(3)):
        try:
            attempt()
        except RuntimeError as error:
            seen.append(str(error))
    return seen


def test_random_fill_draws_as_torch(torch):
    assert _draws(mg) == _draws(torch)
