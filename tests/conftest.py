"""What every test may ask for: `torch`, the reference PyTorch 2.13 (the one torch fixture of
the parity tests; a test that takes it is marked `torch`), `lib`, which runs a test once on
minigrad and once on PyTorch, and the shared helpers in tests/harness/ (on the path:
pyproject.toml's pythonpath)."""
from __future__ import annotations

import os
import sys
from typing import Any

import pytest

import minigrad

# The harness's asserts report what differed, as a test module's do.
pytest.register_assert_rewrite("harness")
from harness.parity import TORCH_CPU_CAPABILITY, reference_torch  # noqa: E402

# PyTorch's kernels as minigrad repeats them (AVX2's) on every machine; PyTorch reads this when
# it is first imported, which is later than here.
os.environ["ATEN_CPU_CAPABILITY"] = TORCH_CPU_CAPABILITY


@pytest.fixture(autouse=True)
def _recursion_limit_restored() -> Any:
    """Answers run in-process (the answer tables) may raise Python's recursion limit, as a
    learner's recursive answer does; the next test on the worker starts from the default."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


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


# Every row of the answer tables (tests/course/answers/) is in the fast tier: a check watched
# call by call takes about 0.05 s (0.4 s at most), the 323 rows 15 s of CPU.
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that takes the torch fixture is marked torch."""
    for item in items:
        if "torch" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.torch)
