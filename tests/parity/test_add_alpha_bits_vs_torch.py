"""add and sub with alpha against PyTorch 2.13, bit for bit: its CPU kernel computes
a + alpha * b as one fused multiply-add in float32 and float64 (sub: alpha negated), which a
multiply then an add rounds otherwise in about a fifth to a third of the values."""
from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["add", "sub"])
@pytest.mark.parametrize("alpha", [0.3, -1.7, 3, 2])
def test_add_and_sub_with_alpha_bit_for_bit(torch, op, alpha, dtype):
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(200, 50)), rng.normal(size=50)  # b broadcast along the rows
    a[0, :4] = [0.0, -0.0, np.inf, 1.0]  # signs of zeros, an infinity
    b[:4] = [-0.0, 0.0, 1.0, np.inf]
    results = []
    for lib in (mg, torch):
        x, y = (lib.tensor(v, dtype=getattr(lib, dtype)) for v in (a, b))
        results.append(getattr(lib, op)(x, y, alpha=alpha).numpy())
        results.append(getattr(x.clone(), f"{op}_")(y, alpha=alpha).numpy())
    ours, ours_in_place, theirs, theirs_in_place = results
    for mine, want in ((ours, theirs), (ours_in_place, theirs_in_place)):
        assert mine.dtype == want.dtype
        np.testing.assert_array_equal(mine, want)
        np.testing.assert_array_equal(np.signbit(mine), np.signbit(want))
