"""clone() keeps the layout, as PyTorch's memory_format=torch.preserve_format does;
contiguous() makes a C-order copy. Strides were checked against torch 2.13; where torch is
importable a second test asks it directly."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minigrad as mg


def _strides(t: Any) -> tuple[int, ...]:
    """A tensor's strides in elements, as torch's .stride() gives them."""
    return t.stride() if not isinstance(t, mg.Tensor) else tuple(
        s // t._data.itemsize for s in t._data.strides)


VIEWS: dict[str, Callable[[Any], Any]] = {
    "t": lambda x: x.reshape(3, 4).t(),
    "permute": lambda x: x.reshape(2, 3, 2).permute(2, 0, 1),
    "step_slice": lambda x: x.reshape(3, 4)[:, ::2],
    "step_slice_t": lambda x: x.reshape(3, 4)[:, ::2].t(),
    "transpose_3d": lambda x: x.reshape(2, 2, 3).transpose(0, 2),
}


def test_clone_of_a_transpose_keeps_its_strides() -> None:
    x = mg.arange(6.0).reshape(2, 3).t()
    copy = x.clone()
    assert _strides(copy) == _strides(x) == (1, 3)
    assert not copy.is_contiguous()
    assert copy.tolist() == x.tolist()
    assert not np.shares_memory(copy._data, x._data)
    assert x.contiguous().is_contiguous()  # contiguous() still makes a C-order copy
    assert x.reshape(6).tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]


def test_clone_of_a_strided_slice_is_dense_in_the_same_dimension_order() -> None:
    copy = mg.arange(12.0).reshape(3, 4)[:, ::2].t().clone()
    assert _strides(copy) == (1, 2)


def test_clone_grad_fn_and_gradient_are_unchanged() -> None:
    a = mg.arange(6.0, requires_grad=True)
    copy = a.reshape(2, 3).t().clone()
    assert copy.grad_fn.name() == "CloneBackward0"
    (copy * mg.arange(6.0).reshape(3, 2)).sum().backward()
    assert a.grad.tolist() == [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]


@pytest.mark.parametrize("view", VIEWS)
def test_clone_layout_matches_torch(view: str, torch) -> None:
    ours, theirs = (VIEWS[view](lib.arange(24.0)[:12]).clone() for lib in (mg, torch))
    assert _strides(ours) == _strides(theirs)
    assert ours.is_contiguous() == theirs.is_contiguous()
