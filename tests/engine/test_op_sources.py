"""Every operation can be read where it is defined: `inspect.getsource` finds the class of each
Function in minigrad.ops and minigrad.nn (none is made by a factory, which has no source), and
the source is the class itself, with its forward and backward."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import minigrad
from minigrad.autograd import Function


def _op_classes() -> list[type]:
    """Every Function subclass defined in a module of minigrad.ops or minigrad.nn."""
    classes = []
    for package in ("minigrad.ops", "minigrad.nn"):
        for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
            module = importlib.import_module(f"{package}.{info.name}")
            classes += [value for value in vars(module).values()
                        if inspect.isclass(value) and issubclass(value, Function)
                        and value.__module__ == module.__name__]
    return sorted(set(classes), key=lambda cls: (cls.__module__, cls.__name__))


OP_CLASSES = _op_classes()


def test_the_ops_are_found() -> None:
    names = {cls.__name__ for cls in OP_CLASSES}
    assert {"Exp", "Log", "Sigmoid", "Mul", "Relu", "Sum", "View", "Mm", "Softmax"} <= names
    assert len(OP_CLASSES) > 50


@pytest.mark.parametrize("cls", OP_CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_op_class_has_readable_source(cls: type) -> None:
    source = inspect.getsource(cls)
    assert source.startswith(f"class {cls.__name__}(")
    own = vars(cls)
    for method in ("forward", "backward"):
        if method in own:  # a subclass may take them from its base (SumDim from Sum)
            assert f"def {method}(ctx" in source


def test_exp_reads_as_its_derivative() -> None:
    # (fidelity's exp_like_torch reads as np.exp: minigrad/fidelity/__init__.py)
    source = inspect.getsource(minigrad.ops.pointwise.Exp)
    assert "exp_like_torch(a._data)" in source and "return grad * out" in source
