"""Open the course in JupyterLab (what `make lab` runs, with .venv's python).

    python scripts/open_lab.py               # trust the course's notebooks, start JupyterLab
    python scripts/open_lab.py --trust-only  # only trust them (the browser test uses this)

JupyterLab shows the SVG outputs (the diagrams) of a notebook only when the notebook is
trusted: signed with this user's secret in the signature database of the Jupyter data dir,
which is what `jupyter trust` does. The course's notebooks are ours, so they are signed
before every start; a signature is a hash of the content, so after a `git pull` they need it
again.

If a JupyterLab already serves this folder, its address is printed instead of starting a second
server on the same files; if port 8888 is taken, the next free port is used and said so.
"""
from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COURSE_FOLDERS = ("notebooks", "exercises", "solutions")
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

    notebooks = course_notebooks()
    signed = trust_notebooks(notebooks)
    if args.trust_only:
        print(f"trusted {len(notebooks)} course notebooks ({signed} newly signed)")
        return 0

    starts = sorted((ROOT / "notebooks").glob("00_*.ipynb"))
    start_path = starts[0].relative_to(ROOT).as_posix() if starts else None

    server = running_server_for(ROOT)
    if server is not None:
        page = f"lab/tree/{start_path}" if start_path else "lab"
        token = f"?token={server['token']}" if server.get("token") else ""
        print(f"JupyterLab is already running for this course (pid {server.get('pid')}):")
        print(f"    {server['url']}{page}{token}")
        print("Open that address, or stop that server (Ctrl+C in its terminal) and run make lab again.")
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

    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={ROOT}",
               f"--ServerApp.port={port}"]
    if os.geteuid() == 0:  # containers and CI machines often run everything as root
        command.append("--allow-root")
    if start_path:  # the address JupyterLab prints and opens leads straight to this notebook
        command.append(f"--LabApp.default_url=/lab/tree/{start_path}")
    sys.stdout.flush()
    os.chdir(ROOT)
    os.execv(sys.executable, command)  # JupyterLab takes over this process (Ctrl+C stops it)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
