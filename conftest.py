"""Project-wide pytest policy: in CI nothing may be skipped; tiers are chosen by deselecting.

A test that needs something optional (Debian's Chromium for the browser test, PyTorch for the
parity tests) skips on a learner's machine that lacks it, with one line saying why. CI
(`CI=true`, set by the CI runner and by `.ci/run`) installs all of it, so there a skip can only
mean a missing install step: it is reported as a failure, with the skip's reason.

A notebook cell tagged `nbval-skip` by its author is not an environment skip and stays skipped.

So `make check` (the fast tier) leaves tests out with `-m "not slow and not browser ..."`, the
markers pyproject.toml registers: the notebooks' cells are marked slow here, the browser tests
in tests/browser/conftest.py, a test that takes the `torch` fixture torch in tests/conftest.py,
the others where they are written.
"""
from __future__ import annotations

import os
import time

import pytest


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


# Property tests explore new random examples on a developer's machine; in CI they replay the
# same ones every run, so a submission's result does not depend on the draw. (`make notebooks`
# runs the notebooks in an environment without hypothesis: there, nothing to set.)
# Either way a test is judged by what it computes, never by how long it took: on a machine
# shared by other runs, hypothesis's deadline and its slow-generation check failed correct code.
try:
    from hypothesis import HealthCheck, settings
except ImportError:
    settings = None
if settings is not None:
    untimed = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
    settings.register_profile("local", **untimed)
    settings.register_profile("ci", derandomize=True, database=None, **untimed)
    settings.load_profile("ci" if running_in_ci() else "local")


def _skipped_by_notebook_author(item: pytest.Item) -> bool:
    options = getattr(item, "options", None)  # nbval's cell items carry their tags here
    return bool(options is not None and options.get("skip"))


def _fail_if_skipped_in_ci(report: pytest.CollectReport | pytest.TestReport) -> None:
    if not (report.skipped and running_in_ci()) or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped in CI, where nothing may be skipped: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    if not _skipped_by_notebook_author(item):
        _fail_if_skipped_in_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    """A whole module skipped at import (`pytest.importorskip` at top level) counts too."""
    outcome = yield
    _fail_if_skipped_in_ci(outcome.get_result())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each notebook's cells run in a kernel of its own: they belong to the slow tier."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)


BROWSER_ARTIFACTS = "tests/.artifacts/browser"


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config._minigrad_started = time.time()


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    """Say where the browser test left its screenshots (its own output is captured)."""
    folder = config.rootpath / BROWSER_ARTIFACTS
    started = getattr(config, "_minigrad_started", 0.0)
    shots = [p for p in folder.rglob("*.png") if p.stat().st_mtime >= started]
    if shots:
        terminalreporter.write_line(f"browser test screenshots ({len(shots)}): {folder}/")
