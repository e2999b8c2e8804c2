"""minigrad._printing prints tensors exactly as PyTorch does.

The golden cases in tests/golden/printing.json were recorded from real torch by
scripts/record_printing_golden.py; this file does not need torch.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

from minigrad import _printing
from minigrad._printing import get_printoptions, printoptions, set_printoptions, tensor_repr

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "printing.json").read_text())


@pytest.fixture(autouse=True)
def _default_options():
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


def _array(case: dict) -> np.ndarray:
    raw = base64.b64decode(case["data"])
    dtype = np.dtype(case["dtype"]).newbyteorder("<")
    return np.frombuffer(raw, dtype).astype(case["dtype"]).reshape(case["shape"])


def test_golden_file_is_big_enough():
    assert len(GOLDEN) >= 300
    assert {c["dtype"] for c in GOLDEN} >= {"float16", "float32", "float64", "int8", "uint8",
                                           "int16", "int32", "int64", "bool"}


@pytest.mark.parametrize("case", GOLDEN, ids=[c["id"] for c in GOLDEN])
def test_matches_torch(case):
    set_printoptions(**case["options"])
    got = tensor_repr(_array(case), case["dtype"], case["suffixes"], default_dtype="float32")
    assert got == case["expected"]


def _f32(values) -> np.ndarray:
    return np.array(values, dtype=np.float32)


def test_examples():
    assert tensor_repr(_f32([-1, 2]), "float32", []) == "tensor([-1.,  2.])"
    assert tensor_repr(_f32(4), "float32", []) == "tensor(4.)"
    assert tensor_repr(_f32([[0.745], [0.9107]]), "float32", []) == (
        "tensor([[0.7450],\n        [0.9107]])")
    assert tensor_repr(np.array([1.5]), "float64", ["requires_grad=True"]) == (
        "tensor([1.5000], dtype=torch.float64, requires_grad=True)")
    assert tensor_repr(np.zeros((0, 3), np.int64), "int64", []) == (
        "tensor([], size=(0, 3), dtype=torch.int64)")
    assert tensor_repr(_f32([]), "float32", []) == "tensor([])"
    assert tensor_repr(_f32([1e-5, 1.0]), "float32", []) == "tensor([1.0000e-05, 1.0000e+00])"


def test_two_rows_print_on_two_lines():
    text = tensor_repr(np.arange(6, dtype=np.float32).reshape(2, 3) / 7, "float32", [])
    lines = text.split("\n")
    assert len(lines) == 2
    assert lines[1].startswith(" " * len("tensor(["))


def test_three_dims_separate_matrices_with_a_blank_line():
    text = tensor_repr(np.ones((2, 2, 2), np.int64), "int64", [])
    assert text == ("tensor([[[1, 1],\n         [1, 1]],\n\n"
                    "        [[1, 1],\n         [1, 1]]])")


def test_summarized_above_threshold_only():
    at = tensor_repr(np.arange(1000), "int64", [])
    above = tensor_repr(np.arange(1001), "int64", [])
    assert "..." not in at
    assert above == "tensor([   0,    1,    2,  ...,  998,  999, 1000])"


def test_deep_tensors_print():
    text = tensor_repr(np.zeros((1, 1, 1, 1, 1, 2), np.float32), "float32", [])
    assert text == "tensor([[[[[[0., 0.]]]]]])"


def test_default_dtype_decides_which_float_dtype_is_shown():
    assert tensor_repr(_f32([1]), "float32", [], default_dtype="float64") == (
        "tensor([1.], dtype=torch.float32)")
    assert tensor_repr(np.array([1.0]), "float64", [], default_dtype="float64") == "tensor([1.])"


def test_long_suffix_moves_to_its_own_line():
    text = tensor_repr(_f32([1.25] * 8), "float32", ["grad_fn=<MulBackward0>"])
    assert text.endswith(",\n       grad_fn=<MulBackward0>)")


def test_printoptions_roundtrip_and_reset():
    set_printoptions(precision=2, sci_mode=True)
    opts = get_printoptions()
    assert opts == {"precision": 2, "threshold": 1000, "edgeitems": 3, "linewidth": 80,
                    "sci_mode": True}
    set_printoptions(linewidth=100)  # like torch, sci_mode goes back to None when not given
    assert get_printoptions()["sci_mode"] is None
    with printoptions(profile="short"):
        assert tensor_repr(_f32([1 / 3]), "float32", []) == "tensor([0.33])"
    assert get_printoptions() == {**opts, "linewidth": 100, "sci_mode": None}
    assert _printing._OPTS.precision == 2
