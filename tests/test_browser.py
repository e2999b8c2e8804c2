"""The course as a learner sees it: JupyterLab in Debian's Chromium, driven by Playwright.

For every course notebook: opened as stored, its saved diagrams show as SVG (JupyterLab hides
the SVG of untrusted notebooks, so this checks the trust step of `make lab`); cleared and run
with Run > Run All Cells, the diagrams come back and no cell ends in an error. For every
exercise notebook: the first exercise gets its solution typed in, and its check cell prints the
success line that the solutions notebook stored. Screenshots go to tests/.artifacts/browser/.

JupyterLab serves a copy of the course folders from a temporary directory, with its own Jupyter
config, data and runtime directories, so nothing the browser does (autosave, checkpoints,
signatures) touches the repository or the user's Jupyter set-up.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "tests" / ".artifacts" / "browser"
COURSE_FOLDERS = ("notebooks", "exercises", "solutions")
SERVER_START_S = 120
NOTEBOOK_RUN_MS = 240_000
UI_MS = 60_000

if not CHROMIUM.exists():
    pytest.skip(f"browser test skipped: no Chromium at {CHROMIUM} (Debian: apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="browser test skipped: playwright "
                               "is not installed (pip install -e '.[test]')")
expect = sync_api.expect


def notebooks(folder: str) -> list[pytest.param]:
    found = sorted((ROOT / folder).glob("*.ipynb"))
    if not found:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no {folder}/*.ipynb yet"))]
    return [pytest.param(path, id=path.name) for path in found]


def stored_svg_count(notebook: dict) -> int:
    return sum("image/svg+xml" in output.get("data", {})
               for cell in notebook["cells"] for output in cell.get("outputs", []))


@dataclass
class Lab:
    url: str
    token: str

    def page_url(self, path: str) -> str:
        # A fresh named workspace per page, so JupyterLab does not reopen earlier tabs.
        return f"{self.url}/lab/workspaces/{secrets.token_hex(4)}/tree/{path}?token={self.token}"

    def api(self, method: str, path: str) -> bytes:
        request = urllib.request.Request(f"{self.url}{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read()


def isolated_jupyter_env(home: Path) -> dict[str, str]:
    """The user's Jupyter set-up stays out of the test, and the test out of it."""
    env = dict(os.environ)
    for variable, folder in {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data",
                             "JUPYTER_RUNTIME_DIR": "runtime", "IPYTHONDIR": "ipython",
                             "JUPYTERLAB_SETTINGS_DIR": "settings",
                             "JUPYTERLAB_WORKSPACES_DIR": "workspaces"}.items():
        env[variable] = str(home / folder)
    # No "get Jupyter news?" toast over the notebook in the screenshots.
    notification = home / "settings" / "@jupyterlab" / "apputils-extension"
    notification.mkdir(parents=True)
    (notification / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(server: subprocess.Popen, lab: Lab) -> None:
    """Ask JupyterLab to shut down (it stops its kernels), then insist."""
    if server.poll() is None:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):  # then the signals below
            lab.api("POST", "/api/shutdown")
            server.wait(timeout=20)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if server.poll() is not None:
            return
        os.killpg(server.pid, sig)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    home = tmp_path_factory.mktemp("jupyterlab")
    served = home / "course"
    for folder in COURSE_FOLDERS:
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, served / folder)
    env = isolated_jupyter_env(home)
    # The trust step of `make lab`, into this test's own signature database. The copies are
    # byte-identical, and a signature depends only on the content.
    subprocess.run([sys.executable, str(ROOT / "scripts" / "open_lab.py"), "--trust-only"],
                   env=env, check=True, capture_output=True)
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    lab = Lab(url=f"http://127.0.0.1:{free_port()}", token=secrets.token_hex(24))
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={lab.url.rsplit(':', 1)[1]}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={lab.token}", f"--ServerApp.root_dir={served}",
               "--LabApp.expose_app_in_browser=True", "--allow-root"]
    log = (ARTIFACTS / "jupyterlab.log").open("w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited with {server.returncode}; see {log.name}")
            try:
                lab.api("GET", "/api/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab not ready after {SERVER_START_S} s; see {log.name}")
                time.sleep(0.25)
        yield lab
    finally:
        stop(server, lab)
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, lab: Lab) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    yield context.new_page()
    context.close()
    for session in json.loads(lab.api("GET", "/api/sessions")):  # one kernel per test at most
        lab.api("DELETE", f"/api/sessions/{session['id']}")


# JavaScript run in the page. JupyterLab exposes itself as window.jupyterapp when started with
# --LabApp.expose_app_in_browser; the notebook model is the one source for output types (an
# error and a warning both render as red stderr text).
KERNEL_IDLE = """() => { const panel = window.jupyterapp?.shell.currentWidget;
  const kernel = panel?.sessionContext?.session?.kernel;
  return Boolean(kernel) && kernel.status === 'idle'; }"""
NOTEBOOK_JSON = "window.jupyterapp.shell.currentWidget.content.model.toJSON()"
RUN_FINISHED = f"""() => {{ const code = {NOTEBOOK_JSON}.cells.filter(c => c.cell_type === 'code'
    && [].concat(c.source).join('').trim());
  const failed = code.some(c => c.outputs.some(o => o.output_type === 'error'));
  return failed || code.every(c => c.execution_count !== null); }}"""
CELL_ERRORS = f"""() => {NOTEBOOK_JSON}.cells.flatMap((c, i) => (c.outputs || [])
  .filter(o => o.output_type === 'error').map(o => `cell ${{i}}: ${{o.ename}}: ${{o.evalue}}`))"""
SVG_IMAGES = ".jp-Notebook .jp-RenderedSVG img[src^='data:image/svg+xml']"
SVG_SHOWN = f"""() => Array.from(document.querySelectorAll("{SVG_IMAGES}"))
  .filter(img => img.complete && img.naturalWidth > 0).length"""


def open_notebook(page, lab: Lab, path: str) -> None:
    page.goto(lab.page_url(path))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=UI_MS)
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)


def menu(page, menu_name: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=menu_name).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def screenshot(page, name: str) -> None:
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=path)
    print(f"screenshot: {path}")


@pytest.mark.parametrize("path", notebooks("notebooks"))
def test_course_notebook_shows_diagrams_and_runs_clean(page, lab: Lab, path: Path) -> None:
    stored = stored_svg_count(json.loads(path.read_text()))
    open_notebook(page, lab, f"notebooks/{path.name}")
    page.wait_for_function(f"() => ({SVG_SHOWN})() === {stored}", timeout=UI_MS)
    expect(page.get_by_text("Cannot display an untrusted SVG")).to_have_count(0)
    if stored:
        page.locator(SVG_IMAGES).first.scroll_into_view_if_needed()
    screenshot(page, f"{path.stem}-as-stored")

    menu(page, "Edit", "Clear Outputs of All Cells")
    expect(page.locator(SVG_IMAGES)).to_have_count(0)
    menu(page, "Run", "Run All Cells")
    page.wait_for_function(RUN_FINISHED, timeout=NOTEBOOK_RUN_MS, polling=250)
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)
    screenshot(page, f"{path.stem}-after-run-all")
    assert page.evaluate(CELL_ERRORS) == [], f"errors in {path.name} run in JupyterLab"
    page.wait_for_function(f"() => ({SVG_SHOWN})() === {stored}", timeout=UI_MS)


def first_exercise(exercise: dict, solution: dict) -> tuple[int, str, int, str]:
    """(index, typed answer, check index, success line) for the notebook's first exercise.
    The answer and the success line come from the solutions notebook: its solution cell, with
    the nbgrader markers a learner never sees dropped, and what its check cell printed."""
    solutions = {cell.get("id"): cell for cell in solution["cells"]}
    cells = exercise["cells"]
    index = next(i for i, cell in enumerate(cells)
                 if cell.get("metadata", {}).get("nbgrader", {}).get("solution"))
    check = next(i for i in range(index + 1, len(cells))
                 if cells[i].get("metadata", {}).get("nbgrader", {}).get("grade"))
    answer_lines = solutions[cells[index]["id"]]["source"]
    answer_lines = "".join(answer_lines).splitlines() if isinstance(answer_lines, list) \
        else answer_lines.splitlines()
    answer = "\n".join(line for line in answer_lines if "### BEGIN SOLUTION" not in line
                       and "### END SOLUTION" not in line)
    printed = [output for output in solutions[cells[check]["id"]].get("outputs", [])
               if output.get("name") == "stdout"]
    assert printed, f"the solutions' check cell {cells[check]['id']} stored no success line"
    text = printed[0]["text"]
    success = ("".join(text) if isinstance(text, list) else text).strip().splitlines()[0]
    return index, answer, check, success


@pytest.mark.parametrize("path", notebooks("exercises"))
def test_exercise_accepts_a_typed_answer(page, lab: Lab, path: Path) -> None:
    solution_path = ROOT / "solutions" / path.name
    assert solution_path.exists(), f"{path.name} has no twin in solutions/"
    index, answer, check, success = first_exercise(json.loads(path.read_text()),
                                                   json.loads(solution_path.read_text()))
    open_notebook(page, lab, f"exercises/{path.name}")
    cells = page.locator(".jp-Notebook .jp-Cell")
    cells.nth(index).locator(".jp-InputPrompt").click()  # select it, in command mode
    menu(page, "Run", "Run All Above Selected Cell")
    page.wait_for_function(KERNEL_IDLE, polling=250, timeout=NOTEBOOK_RUN_MS)
    assert page.evaluate(CELL_ERRORS) == [], f"the cells above the first exercise of {path.name}"

    cells.nth(index).locator(".cm-content").click()  # edit mode, as a learner clicking in
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(answer)  # like a paste: no auto-indent or bracket closing
    page.keyboard.press("Shift+Enter")  # runs the answer, moves to the next cell
    cells.nth(check).locator(".jp-InputPrompt").click()
    page.keyboard.press("Shift+Enter")
    check_output = cells.nth(check).locator(".jp-OutputArea-output")
    expect(check_output.first).to_contain_text(success, timeout=NOTEBOOK_RUN_MS)
    check_output.first.scroll_into_view_if_needed()
    screenshot(page, f"{path.stem}-exercise-checked")
