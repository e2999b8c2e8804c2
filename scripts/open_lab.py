"""Open the course in JupyterLab (what `make lab` runs, with .venv's python).

    python scripts/open_lab.py               # set up, trust the notebooks, start JupyterLab
    python scripts/open_lab.py --trust-only  # only set up and trust (the browser tests use this)

Set-up is scripts/set_up_lab.py: the environment's terminals, JupyterLab settings and the
diagrams' compiled Graphviz.

JupyterLab shows the SVG outputs (the diagrams) of a notebook only when the notebook is
trusted: signed with this user's secret in the signature database of the Jupyter data dir,
which is what `jupyter trust` does. The course's notebooks are ours, so they are signed
before every start; a signature is a hash of the content, so after a `git pull` they need it
again.

Once JupyterLab answers, one line says the address to open ("Open the course at: ..."); a
browser is opened too where there is one. If a JupyterLab already serves this folder, its
address is printed instead of starting a second server on the same files; if port 8888 is
taken, the next free port is used and said so.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import webbrowser
from pathlib import Path

import set_up_lab

ROOT = Path(__file__).resolve().parent.parent
COURSE_FOLDERS = ("notebooks", "exercises", "solutions", "solutions/lessons")
PREFERRED_PORT = 8888
PORTS_TO_TRY = 50


def course_notebooks(root: Path = ROOT) -> list[Path]:
    """Every notebook the project ships, in a stable order."""
    return sorted(p for folder in COURSE_FOLDERS for p in (root / folder).glob("*.ipynb"))


def trust_notebooks(paths: list[Path]) -> int:
    """Sign `paths` as trusted for this user, like `jupyter trust`; returns how many changed."""
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary()
    signed = 0
    for path in paths:
        notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        if not notary.check_signature(notebook):
            notary.sign(notebook)
            signed += 1
    return signed


def running_server_for(root: Path) -> dict | None:
    """A Jupyter server of this user that already serves `root`, if there is one."""
    from jupyter_server.serverapp import list_running_servers

    for server in list_running_servers():
        if Path(server.get("root_dir", "")).resolve() == root:
            return server
    return None


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def first_free_port(start: int, count: int) -> int | None:
    return next((port for port in range(start, start + count) if port_is_free(port)), None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trust-only", action="store_true", help="sign the notebooks and stop")
    args = parser.parse_args()

    set_up_lab.main([])  # done by `make venv` already; here for `conda` environments
    notebooks = course_notebooks()
    signed = trust_notebooks(notebooks)
    if args.trust_only:
        print(f"trusted {len(notebooks)} course notebooks ({signed} newly signed)")
        return 0

    starts = sorted((ROOT / "notebooks").glob("00_*.ipynb"))
    start_path = starts[0].relative_to(ROOT).as_posix() if starts else None

    server = running_server_for(ROOT)
    if server is not None:
        print(f"JupyterLab is already running for this course (pid {server.get('pid')}).")
        print(f"Open the course at: {start_address(server, start_path)}")
        print("Or stop that server (Ctrl+C in its terminal) and run make lab again.")
        return 0

    port = first_free_port(PREFERRED_PORT, PORTS_TO_TRY)
    if port is None:
        last = PREFERRED_PORT + PORTS_TO_TRY - 1
        print(f"make lab: ports {PREFERRED_PORT} to {last} are all taken; free one and retry.")
        return 1
    if port != PREFERRED_PORT:
        print(f"make lab: port {PREFERRED_PORT} is taken, so JupyterLab will use port {port}.")
    if start_path is None:
        print("make lab: notebooks/00_*.ipynb does not exist yet; opening the project folder.")

    # Warnings and errors only: the start-up's 20-odd INFO lines (extensions loaded, language
    # servers not found) would bury the one line a learner needs, the address printed below.
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={ROOT}",
               f"--ServerApp.port={port}", "--ServerApp.log_level=WARN",
               "--LabApp.log_level=WARN"]
    if os.geteuid() == 0:  # containers and CI machines often run everything as root
        command.append("--allow-root")
    if start_path:  # the address JupyterLab opens leads straight to this notebook
        command.append(f"--LabApp.default_url=/lab/tree/{start_path}")
    if not browser_available():  # and JupyterLab would say "No web browser found"
        command.append("--ServerApp.open_browser=False")
    return serve(command, start_path)


def browser_available() -> bool:
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def lab_environment() -> dict[str, str]:
    """This environment first on PATH, for a terminal whose shell is not bash (set_up_lab.py
    gives bash its own start-up file) and for any program JupyterLab starts."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def serve(command: list[str], start_path: str | None) -> int:
    """Run JupyterLab until it stops; once it answers, print the address to open on a line of
    its own (JupyterLab's log has it too, among many others). Ctrl+C reaches JupyterLab as
    well, which asks to confirm (or stops at a second Ctrl+C); this process waits for it."""
    sys.stdout.flush()
    lab = subprocess.Popen(command, cwd=ROOT, env=lab_environment())
    signal.signal(signal.SIGTERM, lambda *_: lab.terminate())  # `kill` stops both
    try:
        address = wait_until_serving(lab, start_path)
        if address:
            print(f"\nOpen the course at: {address}\n", flush=True)
        return lab.wait()
    except KeyboardInterrupt:
        while True:
            try:
                return lab.wait()
            except KeyboardInterrupt:
                continue


def wait_until_serving(lab: subprocess.Popen, start_path: str | None) -> str | None:
    """The address of `lab`'s start page once its server answers; None if it stopped first.
    The server writes its address and token to a runtime file, found by its process id."""
    from jupyter_server.serverapp import list_running_servers

    while lab.poll() is None:
        server = next((s for s in list_running_servers() if s.get("pid") == lab.pid), None)
        if server is not None and answers(server):
            return start_address(server, start_path)
        time.sleep(0.2)
    return None


def answers(server: dict) -> bool:
    request = urllib.request.Request(f"{server['url']}api/status",
                                     headers={"Authorization": f"token {server.get('token', '')}"})
    try:
        with urllib.request.urlopen(request, timeout=2):
            return True
    except OSError:
        return False


def start_address(server: dict, start_path: str | None) -> str:
    page = f"lab/tree/{start_path}" if start_path else "lab"
    token = f"?token={server['token']}" if server.get("token") else ""
    return f"{server['url']}{page}{token}"


if __name__ == "__main__":
    sys.exit(main())
