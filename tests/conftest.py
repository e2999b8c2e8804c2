"""What every test may ask for: `torch`, the reference PyTorch 2.13 (the one torch fixture of
the parity tests; a test that takes it is marked `torch`), `lib`, which runs a test once on
minigrad and once on PyTorch, and the shared helpers in tests/harness/ (on the path:
pyproject.toml's pythonpath)."""
from __future__ import annotations

from typing import Any

import pytest

import minigrad

from harness.parity import reference_torch


@pytest.fixture(scope="session")
def torch() -> Any:
    """PyTorch 2.13, imported once per worker; without it, the test skips (a failure in CI)."""
    return reference_torch()


@pytest.fixture(params=["minigrad", pytest.param("torch", marks=pytest.mark.torch)])
def lib(request: pytest.FixtureRequest) -> Any:
    """The test runs on each library: minigrad, then PyTorch 2.13."""
    if request.param == "torch":
        return request.getfixturevalue("torch")
    return minigrad


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "torch" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.torch)
