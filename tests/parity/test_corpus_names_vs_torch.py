"""Names that tutorial programs of the corpus called and minigrad lacked, each against PyTorch:
torch.linalg.lstsq (dataflowr's linear regression), a write into `tensor.storage()` and
`torch.short` (Deep Learning with PyTorch's chapter 3)."""
from __future__ import annotations

import warnings
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


def test_a_write_into_the_storage_shows_in_the_tensor_and_its_views(torch: Any) -> None:
    def run(lib):
        points = lib.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
        row = points[1]
        points.storage()[2] = 7.0
        points.t().storage()[0] = lib.tensor(2.0)
        return points.tolist(), row.tolist(), points._version, points.storage()[2]

    with warnings.catch_warnings():  # TypedStorage's deprecation, warned once per process
        warnings.simplefilter("ignore")
        assert run(minigrad) == run(torch) == ([[2.0, 1.0], [7.0, 3.0], [2.0, 1.0]], [7.0, 3.0], 0, 7.0)


def test_short_is_int16(torch: Any) -> None:
    assert (minigrad.short, str(minigrad.ones(2).to(dtype=minigrad.short).dtype)) == (
        minigrad.int16, str(torch.ones(2).to(dtype=torch.short).dtype))


@pytest.mark.parametrize("condition", [
    [[True, False], [False, True]], [0.0, 1.5, 0.0, -2.0], 3, 0.0, [[[0, 1, 0]], [[2, 0, 0]]], []],
    ids=str)
def test_where_of_a_condition_alone_gives_nonzero_indices_as_torch(torch: Any,
                                                                   condition: Any) -> None:
    # `features[torch.where(targets == c)[0]]` (UvA DL tutorial 16's prototypes)
    ours, theirs = (lib.where(lib.tensor(condition)) for lib in (minigrad, torch))
    assert type(ours) is tuple and repr(ours) == repr(theirs)
    assert [t.dtype for t in ours] == [minigrad.int64] * len(theirs)


@pytest.mark.parametrize("call", [
    lambda lib, c: lib.where(c, 1), lambda lib, c: lib.where(c, input=1),
    lambda lib, c: lib.where(), lambda lib, c: lib.where([True, False]),
    lambda lib, c: lib.where(c, 1, 2, 3)], ids=["two", "keyword", "none", "list", "four"])
def test_where_refuses_as_torch(torch: Any, call: Any) -> None:
    messages = []
    for lib in (minigrad, torch):
        with pytest.raises(TypeError) as caught:
            call(lib, lib.tensor([True, False]))
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
