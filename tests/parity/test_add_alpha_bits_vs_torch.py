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


def _alpha_outcome(lib, pair, alpha, op, form):
    """What add or sub with this alpha gives, or its error's first line."""
    x, y = ({"f": lib.tensor([1.5, 2.0]), "i": lib.tensor([1, 2]),
             "b": lib.tensor([True, False])}[k] for k in pair)
    try:
        if form == "function":
            result = getattr(lib, op)(x, y, alpha=alpha)
        elif form == "number":
            result = getattr(lib, op)(x, 2, alpha=alpha)
        elif form == "in place":
            result = getattr(x.clone(), f"{op}_")(y, alpha=alpha)
        else:  # in place under no_grad: minigrad's numpy fast path for float tensors
            with lib.no_grad():
                result = getattr(x.clone(), f"{op}_")(y, alpha=alpha)
        return repr(result)
    except (RuntimeError, TypeError) as error:
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


# PyTorch's alpha_check: a bool alpha only for a bool result, a float alpha never for integers;
# in place, after sub's bool refusal and the cast to the tensor's dtype (minigrad took True as 1
# and truncated 0.5 to 0 on integers)
@pytest.mark.parametrize("pair", ["ff", "ii", "bb", "fi", "if", "ib", "bi", "bf"])
def test_alpha_refusals_match(torch, pair):
    cases = [(alpha, op, form) for alpha in (True, False, 2, 0.5, 2.0, 1.0)
             for op in ("add", "sub") for form in ("function", "number", "in place", "no_grad")]
    ours = {case: _alpha_outcome(mg, pair, *case) for case in cases}
    theirs = {case: _alpha_outcome(torch, pair, *case) for case in cases}
    assert {k: v for k, v in ours.items() if v != theirs[k]} == {
        k: v for k, v in theirs.items() if v != ours[k]}
