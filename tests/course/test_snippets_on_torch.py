"""A predict-the-output check learns its answer by running its snippet on minigrad
(`_snippets.printed_values`). If minigrad printed something else than PyTorch there, the
check would mark a learner's right prediction wrong and teach the wrong one: every snippet is
run on PyTorch 2.13 too, and each print must show the same value."""
from __future__ import annotations

import importlib
import pkgutil
import warnings
from typing import Any

import numpy as np
import pytest

import minigrad_course.checks
from minigrad_course.checks._snippets import RAISES, printed_values


def snippets() -> list[tuple[str, str]]:
    """(name, source) of every snippet a check runs: the `*_SNIPPET` strings and the values of
    the `*_SNIPPETS` dicts of every check module, those that print."""
    found = []
    for module_info in pkgutil.iter_modules(minigrad_course.checks.__path__):
        module = importlib.import_module(f"minigrad_course.checks.{module_info.name}")
        for name, value in sorted(vars(module).items()):
            if name.endswith("_SNIPPET") and isinstance(value, str):
                found.append((f"{module_info.name}.{name}", value))
            elif name.endswith("_SNIPPETS") and isinstance(value, dict):
                found += [(f"{module_info.name}.{name}[{key!r}]", source)
                          for key, source in value.items()]
    return [(name, source) for name, source in found if "print(" in source]


def printed_on_torch(torch: Any, source: str) -> list[Any]:
    """What printed_values gives, with `torch` meaning PyTorch."""
    shown: list[Any] = []

    def record(*values: Any, **_: Any) -> None:
        value = values[0] if values else None
        shown.append(value.detach().numpy().copy() if isinstance(value, torch.Tensor) else value)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            namespace = {"torch": torch, "print": record}
            exec(compile(source, "<snippet>", "exec"), namespace)  # noqa: S102 - our own text
        except Exception:  # noqa: BLE001 - a raise is what the learner predicts as "error"
            shown.append(RAISES)
    return shown


def same(mine: Any, theirs: Any) -> bool:
    if isinstance(mine, np.ndarray) or isinstance(theirs, np.ndarray):
        return (isinstance(mine, np.ndarray) and isinstance(theirs, np.ndarray)
                and mine.shape == theirs.shape and np.allclose(mine, theirs, equal_nan=True))
    return type(mine) is type(theirs) and mine == theirs


def test_every_check_module_has_snippets() -> None:
    assert len(snippets()) >= 30, [name for name, _ in snippets()]


@pytest.mark.parametrize(("name", "source"), snippets(), ids=[name for name, _ in snippets()])
def test_a_snippet_prints_on_minigrad_what_it_prints_on_pytorch(name: str, source: str,
                                                                 torch: Any) -> None:
    mine, theirs = printed_values(source), printed_on_torch(torch, source)
    assert len(mine) == len(theirs) and all(map(same, mine, theirs)), (
        f"{name}: minigrad {mine}, PyTorch {theirs}")
