"""The edge-case half of the parity harness: a case is a function of the library (`minigrad` or
`torch`) that does what a learner's code does; both libraries must show the same for it.

    def case(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        return x.grad

    assert_same_as_torch(case, torch)   # torch: the `torch` fixture (tests/conftest.py)

What is compared is what a learner sees: the repr of what the case returns, or the error it
raises (type and exact message), and the warnings raised on the way, in order. A case whose
numbers must match beyond what a repr prints (a gradient's last bits) returns
`WithArrays(result, arrays)`: the result is compared by its repr, the arrays value for value.
Programs that need an interpreter of their own go through harness/programs.py instead."""
from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest

import minigrad

from .programs import TORCH_CPU_CAPABILITY

REFERENCE_VERSION = "2.13."


def reference_torch() -> Any:
    """PyTorch 2.13, the reference; without it, a skip (which fails in CI: conftest.py)."""
    torch = pytest.importorskip("torch")
    assert torch.backends.cpu.get_cpu_capability() == TORCH_CPU_CAPABILITY.upper(), \
        "PyTorch was imported before tests/conftest.py pinned its kernels to AVX2"
    if not torch.__version__.startswith(REFERENCE_VERSION):
        pytest.skip(f"PyTorch {torch.__version__} is installed; the reference is "
                    f"{REFERENCE_VERSION}x")
    return importlib.import_module("torch")


def without_cpp_source(message: str) -> str:
    """PyTorch ends some warnings with where its C++ code raised them; minigrad has no such
    place."""
    return re.sub(r" \(Triggered internally at [^)]*\.\)$", "", message)


def without_addresses(text: str) -> str:
    """PyTorch prints a node with its address (`<MulBackward0 object at 0x7f..>`), minigrad
    without, so that notebooks print the same on every run."""
    return re.sub(r" at 0x[0-9a-f]+>", ">", text)


class WithArrays(NamedTuple):
    """What a case returns when its printed result is not all that must match: `result` is
    compared by its repr, `arrays` (numpy arrays, or None) dtype and value for value."""
    result: Any
    arrays: tuple


def run(case: Callable[[Any], Any], lib: Any) -> tuple[str, list[str], tuple]:
    """What a learner sees: the printed result (or the error) and the warnings, in order; and
    the arrays the case returned with WithArrays (none when it raised)."""
    arrays: tuple = ()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = case(lib)
            if isinstance(result, WithArrays):
                result, arrays = result
            shown = without_addresses(repr(result))
        except Exception as error:
            shown = f"{type(error).__name__}: {error}"
    return shown, [f"{w.category.__name__}: {without_cpp_source(str(w.message))}"
                   for w in caught], arrays


def outcome(case: Callable[[Any], Any], lib: Any) -> tuple[str, list[str]]:
    """What a learner sees: the printed result (or the error) and the warnings, in order."""
    shown, warned, _ = run(case, lib)
    return shown, warned


def assert_same_as_torch(case: Callable[[Any], Any], torch: Any,
                         rtol: float | None = None) -> tuple[str, list[str]]:
    """The case shows the same on minigrad as on PyTorch, and its arrays (WithArrays) are the
    same: to the bit, or within `rtol` of each value (and of the array's largest, for values a
    sum cancels) where the two sum in another order. Returns minigrad's outcome."""
    *ours, our_arrays = run(case, minigrad)
    *theirs, their_arrays = run(case, torch)
    assert ours == theirs
    assert len(our_arrays) == len(their_arrays)
    for mine, reference in zip(our_arrays, their_arrays):
        if reference is None or mine is None:
            assert mine is reference
        elif rtol is None:
            assert mine.dtype == reference.dtype
            np.testing.assert_array_equal(mine, reference)
        else:  # (an order of adding errs by the terms' size: a sum that cancels to 0 too)
            finite = np.abs(reference[np.isfinite(reference)])  # (a nan would make atol nan)
            scale = float(finite.max()) if finite.size else 0.0
            np.testing.assert_allclose(mine, reference, rtol=rtol, atol=rtol * scale)
    return ours[0], ours[1]
