"""`torch.Tensor(...)` and `torch.FloatTensor(...)` and kin, PyTorch's legacy constructors: values
always in the constructor's dtype (the default float type for torch.Tensor, whatever an array's
dtype), ints as sizes, a tensor as an alias, and PyTorch's refusals and warnings. Sizes make
uninitialised memory in PyTorch (zeros in minigrad): for those only the shape and dtype are
compared. And minigrad's own code never calls the public constructor (it makes results with
`tensor_of`)."""
from __future__ import annotations

import ast
import importlib
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from harness.parity import assert_same_as_torch

VALUES: dict[str, Callable[[Any], Any]] = {
    "float64 array": lambda lib: lib.Tensor(np.array([1.5, 2.0])),
    "float32 array": lambda lib: lib.Tensor(np.array([1.5, 2.0], dtype=np.float32)),
    "int array": lambda lib: lib.Tensor(np.array([1, 2])),
    "uint8 array": lambda lib: lib.Tensor(np.array([1, 2], dtype=np.uint8)),
    "bool array": lambda lib: lib.Tensor(np.array([True, False])),
    "0-d float64 array": lambda lib: lib.Tensor(np.array(2.5)),
    "int list": lambda lib: lib.Tensor([1, 2]),
    "bool list": lambda lib: lib.Tensor([True, False]),
    "nested list": lambda lib: lib.Tensor([[1, 2], [3, 4]]),
    "tuple": lambda lib: lib.Tensor((1, 2.5)),
    "empty list": lambda lib: lib.Tensor([]),
    "nothing": lambda lib: lib.Tensor(),
    "list of tensors": lambda lib: lib.Tensor([lib.tensor(1.0), lib.tensor(2.0)]),
    "an int tensor": lambda lib: lib.Tensor(lib.tensor([1, 2])),
    "a float64 tensor": lambda lib: lib.Tensor(lib.tensor([1.0], dtype=lib.float64)),
    "a tensor that requires grad": lambda lib: (
        lambda x: (lib.Tensor(x), lib.Tensor(x)._base is x))(
        lib.tensor([1.0, 2.0], requires_grad=True)),
    "a float": lambda lib: lib.Tensor(3.0),
    "a bool": lambda lib: lib.Tensor(True),
    "a numpy float": lambda lib: lib.Tensor(np.float64(2.5)),
    "a string": lambda lib: lib.Tensor("a"),
    "a negative size": lambda lib: lib.Tensor(2, -1),
    "a float among sizes": lambda lib: lib.Tensor(2, 3.0),
    "requires_grad": lambda lib: lib.Tensor([1.0], requires_grad=True),
    "dtype": lambda lib: lib.Tensor(np.array([1.0]), dtype=lib.float64),
    "device": lambda lib: lib.Tensor([1.0], device="cpu"),
    "shares a float32 array": lambda lib: (
        lambda a: (lib.Tensor(a).add_(1), a))(np.array([1.0], dtype=np.float32)),
    "FloatTensor of a float64 array": lambda lib: lib.FloatTensor(np.array([1.5, 2.0])),
    "DoubleTensor of a float32 array": lambda lib: lib.DoubleTensor(
        np.array([1.5, 2.0], dtype=np.float32)),
    "LongTensor of floats": lambda lib: lib.LongTensor(np.array([1.5, -2.7])),
    "LongTensor of a list": lambda lib: lib.LongTensor([1, 2]),
    "BoolTensor of a list": lambda lib: lib.BoolTensor([0, 1]),
    "FloatTensor of an int tensor": lambda lib: lib.FloatTensor(lib.tensor([1, 2])),
    "FloatTensor of a float tensor": lambda lib: lib.FloatTensor(lib.tensor([1.0])),
    "FloatTensor with requires_grad": lambda lib: lib.FloatTensor([1.0], requires_grad=True),
}


@pytest.mark.parametrize("make", VALUES.values(), ids=VALUES.keys())
def test_values(torch: Any, make: Callable[[Any], Any]) -> None:
    assert_same_as_torch(make, torch)


def test_the_default_dtype_decides(torch: Any) -> None:
    def case(lib: Any) -> Any:
        lib.set_default_dtype(lib.float64)
        try:
            return lib.Tensor(np.array([1.0], dtype=np.float32)).dtype, lib.Tensor(2).dtype
        finally:
            lib.set_default_dtype(lib.float32)
    assert_same_as_torch(case, torch)


def test_a_list_of_arrays_warns_once(torch: Any) -> None:
    """PyTorch's warning, with its words, once a process: minigrad's flag is reset here
    (PyTorch's may be spent by an earlier test), so only minigrad's warnings are counted."""
    core = importlib.import_module("minigrad.tensor")  # (minigrad.tensor is torch.tensor)

    def case(lib: Any) -> Any:
        return (lib.Tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
                lib.FloatTensor([np.array([1.0])]))
    core._warned_of_a_list_of_arrays = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        shown = repr(case(__import__("minigrad")))
    assert [str(w.message) for w in caught] == [core.LIST_OF_ARRAYS_WARNING]
    assert shown == repr(case(torch))


SIZES: dict[str, Callable[[Any], Any]] = {
    "an int": lambda lib: lib.Tensor(3),
    "two ints": lambda lib: lib.Tensor(2, 3),
    "a Size": lambda lib: lib.Tensor(lib.Size([2, 1])),
    "a numpy int": lambda lib: lib.Tensor(np.int64(2)),
    "FloatTensor(2, 3)": lambda lib: lib.FloatTensor(2, 3),
    "LongTensor(3)": lambda lib: lib.LongTensor(3),
    "FloatTensor()": lambda lib: lib.FloatTensor(),
}


@pytest.mark.parametrize("make", SIZES.values(), ids=SIZES.keys())
def test_sizes(torch: Any, make: Callable[[Any], Any]) -> None:
    assert_same_as_torch(lambda lib: (make(lib).shape, make(lib).dtype), torch)


def test_minigrad_never_calls_the_public_constructor() -> None:
    """`Tensor(...)` inside minigrad would be PyTorch's legacy constructor, which casts every
    array to the default float type: a silent wrong dtype. Results are made with
    `tensor_of(array)`."""
    root = Path(__import__("minigrad").__file__).parent
    calls = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Tensor"):
                calls.append(f"{path.relative_to(root)}:{node.lineno}")
    assert calls == []
