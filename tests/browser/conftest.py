"""Fixtures of the browser tests: one JupyterLab per test module (serving a fresh copy of the
course), one headless Chromium, and a page per test. Without Debian's Chromium or Playwright
the tests skip with one line saying why (a failure in CI: see the project's conftest.py)."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab_driver import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, Lab, copy_course, start_lab, stop_lab


HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder is in the browser tier (deselected by `make check`)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def lab(request: pytest.FixtureRequest,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    home = tmp_path_factory.mktemp("jupyterlab")
    served = home / "course"
    copy_course(served)
    server, lab = start_lab(home, served, f"jupyterlab-{request.module.__name__}.log")
    try:
        yield lab
    finally:
        stop_lab(server, lab)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"browser test skipped: no Chromium at {CHROMIUM} "
                    "(Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: "
                                   "playwright is not installed (pip install -e '.[test]')")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, lab: Lab) -> Iterator[object]:
    context = browser.new_context(viewport=VIEWPORT)
    yield context.new_page()
    context.close()
    for session in json.loads(lab.api("GET", "/api/sessions")):  # one kernel per test at most
        lab.api("DELETE", f"/api/sessions/{session['id']}")
