"""What `make lab` does before the browser: set-up compiles the diagrams' Graphviz into
wasmtime's cache, and open_lab.py prints one line with the address to open (the browser tests
in tests/browser/test_lab_setup.py cover terminals, saving and the news toast)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts JupyterLab and compiles Graphviz

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
DRAW_ONE = ("import minigrad; from minigrad import viz; "
            "viz.draw(minigrad.tensor(2.0, requires_grad=True) * 3).svg()")


def compiled_modules(cache: Path) -> dict[str, int]:
    """wasmtime's cached compiled modules and when each was written (its .stats files only
    count uses)."""
    return {str(path.relative_to(cache)): path.stat().st_mtime_ns
            for path in (cache / "wasmtime").rglob("*")
            if path.is_file() and path.suffix != ".stats" and ".wip" not in path.name}


def test_set_up_compiles_graphviz_for_the_first_diagram(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}  # where wasmtime keeps its cache
    subprocess.run([sys.executable, str(SCRIPTS / "set_up_lab.py")], env=env, check=True)
    after_set_up = compiled_modules(tmp_path)
    assert after_set_up, "set-up left wasmtime's cache empty"
    # A kernel's first diagram: a fresh process finds the compiled code and writes nothing.
    subprocess.run([sys.executable, "-c", DRAW_ONE], env=env, check=True)
    assert compiled_modules(tmp_path) == after_set_up


def isolated_jupyter(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    for variable in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR",
                     "IPYTHONDIR", "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR"):
        env[variable] = str(home / variable.lower())
    env.pop("DISPLAY", None)  # a headless machine: JupyterLab finds no browser to open
    env.pop("BROWSER", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def read_until(stream, pattern: str, seconds: float) -> tuple[re.Match | None, str]:
    seen, deadline = "", time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        seen += line
        match = re.search(pattern, line)
        if match:
            return match, seen
    return None, seen


ADDRESS_LINE = r"^Open the course at: (http://\S+/lab/tree/notebooks/00_\S+\.ipynb\?token=\w+)$"


def test_open_lab_prints_the_address_on_its_own_line(tmp_path: Path) -> None:
    if not sorted((ROOT / "notebooks").glob("00_*.ipynb")):
        pytest.skip("no notebooks/00_*.ipynb to open")
    env = isolated_jupyter(tmp_path)
    lab = subprocess.Popen([sys.executable, str(SCRIPTS / "open_lab.py")], env=env, text=True,
                           stdout=subprocess.PIPE, stderr=(tmp_path / "log").open("w"))
    try:
        match, seen = read_until(lab.stdout, ADDRESS_LINE, 120)
        assert match, f"no 'Open the course at:' line; open_lab.py printed:\n{seen}"
        with urllib.request.urlopen(match[1], timeout=10) as page:  # the token lets us in
            assert page.status == 200
        # A second `make lab` finds this server and prints the same address the same way.
        again = subprocess.run([sys.executable, str(SCRIPTS / "open_lab.py")], env=env,
                               text=True, capture_output=True, timeout=120)
        assert f"Open the course at: {match[1]}" in again.stdout.splitlines()
    finally:
        lab.terminate()  # open_lab.py passes it on to JupyterLab
        lab.wait(timeout=30)
    log = (tmp_path / "log").read_text()
    assert "No web browser found" not in log
    assert "received signal 15, stopping" in log, log  # passed on to JupyterLab...
    with pytest.raises(OSError):  # ...which stopped serving
        urllib.request.urlopen(match[1], timeout=10)
