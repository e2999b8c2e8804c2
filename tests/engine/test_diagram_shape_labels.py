"""Diagrams write a shape as a Python tuple: (3,), not (3)."""
from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


@pytest.mark.parametrize(("shape", "dtype", "text"), [
    ((), None, "scalar"), ((1,), "float32", "shape (1,)"), ((3,), "int64", "shape (3,) int64"),
    ((2, 1), None, "shape (2, 1)"), ((2, 3, 4), "float64", "shape (2, 3, 4) float64")])
def test_diagram_shape_labels_read_as_tuples(shape: tuple, dtype: str | None, text: str) -> None:
    pytest.importorskip("graphviz")
    from minigrad.viz._values import shape_text

    assert shape_text(shape, dtype) == text


def test_a_drawn_vector_is_labelled_with_a_one_element_tuple() -> None:
    pytest.importorskip("graphviz")
    from minigrad import viz

    x = mg.ones(3, requires_grad=True)
    source = viz.draw((x * 2).sum()).source
    assert "shape\\ (3,)" in source and "shape\\ (3)" not in source


def test_a_large_gradient_in_a_step_caption_is_named_by_a_tuple_shape() -> None:
    pytest.importorskip("graphviz")
    from minigrad.viz._steps import _short

    assert _short((np.zeros(5, dtype=np.float32), "float32")) == "a gradient of shape (5,)"
