"""BatchNorm's forward to the bit against PyTorch 2.13's CPU kernel on one thread (session 7):
training outputs, the running mean and variance after a step, and eval outputs from them, for
(N, C) inputs (PyTorch's channels-last kernel: rows added in the dtype, an FMA per squared
difference), (N, C, L) and (N, C, H, W) inputs (values and squares added in double), float32
and float64. PyTorch splits an (N, C) batch's rows among its threads; minigrad adds them as
one thread does, so these cases run PyTorch on one thread. Gradients are not compared to the
bit here: minigrad's backward is composed of ops, PyTorch's is a kernel of its own.

Not yet to the bit: float64 inputs with positions ((N, C, L), (N, C, H, W)), where about one
channel in twenty has a statistic an ulp off PyTorch's (its double sum of squares is neither
all fused nor all plain, as measured); those compare within a relative 1e-14."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from harness.parity import WithArrays, assert_same_as_torch


@pytest.fixture
def one_thread(torch: Any) -> Any:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield torch
    torch.set_num_threads(threads)


def _steps(lib: Any, shape: tuple, dtype: str, seed: int) -> WithArrays:
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal(shape) * rng.uniform(0.1, 5) + rng.uniform(-3, 3),
                   dtype=getattr(lib, dtype))
    layer = {2: lib.nn.BatchNorm1d, 3: lib.nn.BatchNorm1d, 4: lib.nn.BatchNorm2d}[len(shape)]
    bn = layer(shape[1], momentum=0.3, dtype=getattr(lib, dtype))
    with lib.no_grad():
        bn.weight.copy_(lib.tensor(rng.standard_normal(shape[1])))
        bn.bias.copy_(lib.tensor(rng.standard_normal(shape[1])))
    first, second = bn(x), bn(x * 3 - 1)
    bn.eval()
    evaluated = bn(x)
    plain = lib.nn.functional.batch_norm(x, None, None, training=True)
    arrays = [t.detach().numpy() for t in (first, second, evaluated, bn.running_mean,
                                           bn.running_var, plain)]
    return WithArrays([first.grad_fn, first.mean(), bn.num_batches_tracked], tuple(arrays))


SHAPES = [(4, 3), (8, 5), (64, 1), (32, 20), (4, 3, 1), (3, 4, 7), (5, 2, 9), (2, 3, 4, 5)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_batch_norm_forward_bits(one_thread: Any, shape: tuple, dtype: str) -> None:
    rtol = 1e-14 if dtype == "float64" and len(shape) > 2 and shape[2:] != (1,) else None
    for seed in range(3):
        assert_same_as_torch(lambda lib: _steps(lib, shape, dtype, seed), one_thread, rtol=rtol)
