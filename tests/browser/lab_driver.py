"""Driving the course in JupyterLab in Debian's Chromium, shared by the browser tests.

JupyterLab serves a copy of the course folders from a temporary directory, with its own Jupyter
config, data and runtime directories, so nothing the browser does (autosave, checkpoints,
signatures) touches the repository or the user's Jupyter set-up. Screenshots go to
tests/.artifacts/browser/."""
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "tests" / ".artifacts" / "browser"
COURSE_FOLDERS = ("notebooks", "exercises", "solutions")
VIEWPORT = {"width": 1400, "height": 1000}
SERVER_START_S = 120
NOTEBOOK_RUN_MS = 240_000
UI_MS = 60_000


@dataclass
class Lab:
    url: str
    token: str
    root: Path  # the folder JupyterLab serves: a copy of the course
    home: Path  # its Jupyter config, data and runtime directories
    env: dict
    log: Path  # what the server printed

    def page_url(self, path: str) -> str:
        # A fresh named workspace per page, so JupyterLab does not reopen earlier tabs.
        return f"{self.url}/lab/workspaces/{secrets.token_hex(4)}/tree/{path}?token={self.token}"

    def api(self, method: str, path: str, body: dict | None = None) -> bytes:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}{path}", method=method, data=data,
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
    # The course's own JupyterLab settings (no "get Jupyter news?" toast) are not set here: they
    # come from the environment, where scripts/set_up_lab.py wrote them, as for a learner.
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def copy_course(served: Path) -> None:
    for folder in COURSE_FOLDERS:
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, served / folder)


def start_lab(home: Path, served: Path, log_name: str, extra_env: dict[str, str] | None = None,
              app: str = "jupyterlab") -> tuple[subprocess.Popen, Lab]:
    """JupyterLab (or, with app="notebook", Jupyter Notebook 7) on a free port of 127.0.0.1
    serving `served`, ready for requests."""
    env = {**isolated_jupyter_env(home), **(extra_env or {})}
    # The set-up and trust steps of `make lab` (the same environment settings; signatures into
    # this test's own database: the copies are byte-identical, and a signature depends only on
    # the content).
    subprocess.run([sys.executable, str(ROOT / "scripts" / "open_lab.py"), "--trust-only"],
                   env=env, check=True, capture_output=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lab = Lab(url=f"http://127.0.0.1:{free_port()}", token=secrets.token_hex(24), root=served,
              home=home, env=env, log=ARTIFACTS / log_name)
    command = [sys.executable, "-m", app, "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={lab.url.rsplit(':', 1)[1]}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={lab.token}", f"--ServerApp.root_dir={served}",
               "--allow-root"]
    if app == "jupyterlab":
        command.append("--LabApp.expose_app_in_browser=True")
    log = lab.log.open("w")
    # Started in the folder it serves, as open_lab.py does: a terminal opens there.
    server = subprocess.Popen(command, cwd=served, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    log.close()  # the child has its own descriptor
    deadline = time.monotonic() + SERVER_START_S
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"{app} exited with {server.returncode}; see {log.name}")
        try:
            lab.api("GET", "/api/status")
            return server, lab
        except OSError:
            if time.monotonic() > deadline:
                stop_lab(server, lab)
                raise RuntimeError(f"JupyterLab not ready after {SERVER_START_S} s; "
                                   f"see {log.name}") from None
            time.sleep(0.25)


def stop_lab(server: subprocess.Popen, lab: Lab) -> None:
    """Ask JupyterLab to shut down (it stops its kernels and terminals), then insist."""
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
ALL_RAN = f"""() => {NOTEBOOK_JSON}.cells.filter(c => c.cell_type === 'code'
    && [].concat(c.source).join('').trim()).every(c => c.execution_count !== null)"""
CELL_ERRORS = f"""() => {NOTEBOOK_JSON}.cells.flatMap((c, i) => (c.outputs || [])
  .filter(o => o.output_type === 'error').map(o => `cell ${{i}}: ${{o.ename}}: ${{o.evalue}}`))"""
SVG_IMAGES = ".jp-Notebook .jp-RenderedSVG img[src^='data:image/svg+xml']"
SVG_SHOWN = f"""() => Array.from(document.querySelectorAll("{SVG_IMAGES}"))
  .filter(img => img.complete && img.naturalWidth > 0).length"""


KERNEL_SEEN = """() => { const panel = window.jupyterapp?.shell.currentWidget;
  const kernel = panel?.sessionContext?.session?.kernel;
  return kernel ? {status: kernel.status, connection: kernel.connectionStatus} : null; }"""


def open_notebook(page, lab: Lab, path: str) -> None:
    """Open `path` and wait until its kernel is idle.

    Once in a few thousand openings on a loaded machine, the page never hears the new kernel's
    first idle status although the server has it idle (seen once in CI: 60 s of waiting). A
    learner would reload the page; so does this, once, and says so. A kernel the server itself
    does not have idle fails the test, with what the page and the server saw and the end of the
    server's log."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    page.goto(lab.page_url(path))
    for attempt in ("first", "after a reload"):
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=UI_MS)
        try:
            page.wait_for_function(KERNEL_IDLE, polling=250, timeout=UI_MS)
            return
        except PlaywrightTimeout:
            seen = page.evaluate(KERNEL_SEEN)
            on_server = [session["kernel"].get("execution_state")
                         for session in json.loads(lab.api("GET", "/api/sessions"))
                         if session.get("path", "").endswith(path)]
            if attempt == "first" and on_server == ["idle"]:
                print(f"{path}: the page saw the kernel as {seen} while the server has it idle; "
                      "reloading the page once")
                page.reload()
                continue
            screenshot(page, f"kernel-not-idle-{Path(path).stem}")
            tail = "".join(lab.log.read_text(errors="replace").splitlines(True)[-30:])
            raise AssertionError(f"{path}: kernel not idle after {UI_MS // 1000} s ({attempt}); "
                                 f"the page saw {seen}, the server {on_server}; the end of "
                                 f"{lab.log.name}:\n{tail}") from None


def menu(page, menu_name: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=menu_name).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def screenshot(page, name: str) -> Path:
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=path)
    print(f"screenshot: {path}")
    return path
