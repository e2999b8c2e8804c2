"""torch.linalg.lstsq (dataflowr's linear regression solves its normal equations with it): the
solution as PyTorch's to float32 rounding, the rank, and the printed result's form."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad


@pytest.mark.parametrize("shapes", [((30, 3), (30, 1)), ((6, 2), (6,)), ((4, 4), (4, 2))],
                         ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lstsq_solves_as_torch(torch: Any, shapes: tuple, dtype: str) -> None:
    rng = np.random.default_rng(len(shapes[1]))
    a, b = (rng.standard_normal(shape).astype(dtype) for shape in shapes)
    ours, theirs = (lib.linalg.lstsq(lib.tensor(a), lib.tensor(b)) for lib in (minigrad, torch))
    np.testing.assert_allclose(ours.solution.numpy(), theirs.solution.numpy(),
                               rtol=1e-5 if dtype == "float32" else 1e-12)
    assert ours.solution.dtype == getattr(minigrad, dtype)
    assert int(ours.rank) == int(theirs.rank)
    assert [ours.residuals.shape, ours.singular_values.shape] == [(0,), (0,)]
    assert [theirs.residuals.numel(), theirs.singular_values.numel()] == [0, 0]


def test_lstsq_prints_as_torch(torch: Any) -> None:
    a, b = np.eye(3, dtype=np.float32)[:, :2] * 2, np.ones((3, 1), np.float32)
    ours, theirs = (repr(lib.linalg.lstsq(lib.tensor(a), lib.tensor(b))) for lib in (minigrad, torch))
    assert ours == theirs
