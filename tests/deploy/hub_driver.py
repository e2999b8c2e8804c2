"""Drive a JupyterHub on 127.0.0.1 as a class would use it: a hub with a dummy authenticator and
a local process spawner (each user's home a folder of a temporary directory), whose servers start
as the students' image starts them (hub/start.py brings the lessons home, then runs
jupyterhub-singleuser) in the image's environment (tests/deploy/students_image.py); users who log in
through the hub's REST API; a kernel in a user's single-user server, driven through
jupyter_server's REST API and its websocket.

Used by tests/deploy/test_jupyterhub.py and benchmarks/hub.py. The proxy is configurable-http-proxy
(npm); the hub starts and stops it. Nothing here is meant for a real hub: the spawner runs
every user's server as the hub's own OS user, with no isolation (see docs/jupyterhub.md); each
server is told that user is jovyan, as in a pod of Zero to JupyterHub."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import string
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import psutil
import requests
from jupyter_client.jsonutil import json_default
from jupyter_client.session import Session
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from students_image import AS_OS_USER, Image

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PROXY_COMMAND = "configurable-http-proxy"

# The hub's configuration, as an instructor's jupyterhub_config.py would hold it ($names are
# filled in by start_hub).
CONFIG = string.Template('''\
c = get_config()  # noqa: F821 (JupyterHub provides it)
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = $port
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = $hub_port
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:$proxy_api_port"
c.ConfigurableHTTPProxy.command = [$proxy]

# Any password is accepted, for the class list only.
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allowed_users = $users

# Each user's server starts as the image's command (and docs/jupyterhub.md's singleuser.cmd)
# starts it, in the image's environment, as the hub's OS user with HOME in a folder of its
# own; CI runs as root, which jupyter_server refuses unless told.
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = $homes + "/{username}"
c.Spawner.cmd = $cmd
c.Spawner.args = ["--ServerApp.allow_root=True"]
c.Spawner.environment = $environment
c.Spawner.ip = "127.0.0.1"
c.Spawner.start_timeout = 180  # two cores shared with the rest of the test suite
c.Spawner.http_timeout = 180
''')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def proxy_command() -> str | None:
    """configurable-http-proxy's path when it is installed and starts, else None."""
    found = shutil.which(PROXY_COMMAND)
    if found is None:
        return None
    check = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=60)
    return found if check.returncode == 0 else None


class HubError(AssertionError):
    """The hub did not do what was asked; the message ends with the tail of its log."""


@dataclass
class Hub:
    url: str
    folder: Path
    process: subprocess.Popen
    started_in: float
    log: Path
    tokens: dict[str, str] = field(default_factory=dict)
    figures: dict[str, float] = field(default_factory=dict)  # what tests measure

    @property
    def homes(self) -> Path:
        return self.folder / "homes"

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def fail(self, message: str) -> HubError:
        return HubError(f"{message}\n--- the hub's log, last lines ---\n{self.log_tail()}")

    def request(self, method: str, path: str, user: str | None = None,
                **kwargs) -> requests.Response:
        """A request to the hub's public address, as `user` (with their token) or anonymous."""
        headers = {"Authorization": f"token {self.tokens[user]}"} if user else {}
        return requests.request(method, self.url + path, headers=headers, timeout=60, **kwargs)

    # Logging in and servers.

    def log_in(self, user: str, password: str = "any password") -> requests.Response:
        """Log in through the REST API: the authenticator checks the name and password in the
        request and the hub answers with a new API token for the user."""
        answer = self.request("POST", f"/hub/api/users/{user}/tokens",
                              json={"auth": {"username": user, "password": password},
                                    "note": "course test"})
        if answer.status_code == 201:
            self.tokens[user] = answer.json()["token"]
        return answer

    def start_server(self, user: str) -> None:
        answer = self.request("POST", f"/hub/api/users/{user}/server", user)
        if answer.status_code not in (201, 202):
            raise self.fail(f"starting {user}'s server: {answer.status_code} {answer.text}")

    def start_and_wait(self, user: str) -> float:
        """Seconds from asking for `user`'s server to its being ready."""
        start = time.monotonic()
        self.start_server(user)
        self.wait_for_server(user)
        return time.monotonic() - start

    def server_state(self, user: str) -> dict:
        answer = self.request("GET", f"/hub/api/users/{user}", user)
        if answer.status_code != 200:
            raise self.fail(f"reading {user}'s model: {answer.status_code} {answer.text}")
        return answer.json()["servers"].get("", {})

    def wait_for_server(self, user: str, ready: bool = True, timeout: float = 240) -> float:
        """Seconds until `user`'s server is ready (or gone, with ready=False)."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            state = self.server_state(user)
            if bool(state.get("ready")) == ready and (ready or not state):
                return time.monotonic() - start
            time.sleep(0.2)
        raise self.fail(f"{user}'s server not {'ready' if ready else 'stopped'} "
                        f"after {timeout:.0f} s")

    def stop_server(self, user: str) -> None:
        answer = self.request("DELETE", f"/hub/api/users/{user}/server", user)
        if answer.status_code not in (202, 204):
            raise self.fail(f"stopping {user}'s server: {answer.status_code} {answer.text}")
        self.wait_for_server(user, ready=False)

    def server_process(self, user: str) -> psutil.Process:
        """The single-user server the hub spawned for `user` (found by its environment)."""
        for process in psutil.Process(self.process.pid).children(recursive=True):
            try:
                if "jupyterhub-singleuser" in " ".join(process.cmdline()) and \
                        process.environ().get("JUPYTERHUB_USER") == user:
                    return process
            except psutil.NoSuchProcess:
                continue
        raise self.fail(f"no single-user server process for {user}")

    # Inside a user's server (through the proxy).

    def server_request(self, method: str, user: str, path: str, as_user: str | None = None,
                       **kwargs) -> requests.Response:
        return self.request(method, f"/user/{user}{path}", as_user or user, **kwargs)

    def start_kernel(self, user: str, path: str) -> str:
        """A python3 kernel in `user`'s server, working in the folder `path` of their home."""
        answer = self.server_request("POST", user, "/api/kernels",
                                     json={"name": "python3", "path": path})
        if answer.status_code != 201:
            raise self.fail(f"starting a kernel for {user}: {answer.status_code} {answer.text}")
        return answer.json()["id"]

    def run_cells(self, user: str, kernel: str, sources: list[str],
                  timeout: float = 180) -> list[list[dict]]:
        """Run each source in the kernel, in order, through the kernel's websocket channels;
        returns each one's outputs as nbformat outputs (as a notebook would store them)."""
        ws_url = self.url.replace("http", "ws", 1) + f"/user/{user}/api/kernels/{kernel}/channels"
        request = HTTPRequest(ws_url, headers={"Authorization": f"token {self.tokens[user]}"})
        return asyncio.run(_run_cells(request, sources, timeout))

    # Stopping.

    def descendants(self) -> list[psutil.Process]:
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def stop(self, timeout: float = 60) -> int:
        """Stop the hub as an admin would (SIGTERM): it stops the servers and the proxy."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise self.fail(f"the hub still runs {timeout:.0f} s after SIGTERM") from None


async def _run_cells(request: HTTPRequest, sources: list[str], timeout: float) -> list[list[dict]]:
    connection = await websocket_connect(request)
    session = Session(username="course-test")
    results = []
    try:
        for source in sources:
            message = session.msg("execute_request", {
                "code": source, "silent": False, "store_history": True,
                "user_expressions": {}, "allow_stdin": False, "stop_on_error": False})
            message["channel"] = "shell"
            await connection.write_message(json.dumps(message, default=json_default))
            results.append(await _outputs_of(connection, message["header"]["msg_id"], timeout))
    finally:
        connection.close()
    return results


async def _outputs_of(connection, msg_id: str, timeout: float) -> list[dict]:
    """The outputs the kernel sends for one execute request, until it is idle again and has
    replied."""
    outputs, idle, replied = [], False, False
    deadline = time.monotonic() + timeout
    while not (idle and replied):
        raw = await asyncio.wait_for(connection.read_message(), deadline - time.monotonic())
        if raw is None:
            raise HubError("the kernel's websocket closed while a cell ran")
        reply = json.loads(raw)
        if reply["parent_header"].get("msg_id") != msg_id:
            continue
        kind = reply["header"]["msg_type"]
        if reply["channel"] == "shell" and kind == "execute_reply":
            replied = True
        elif kind == "status":
            idle = reply["content"]["execution_state"] == "idle"
        elif kind in ("stream", "display_data", "execute_result", "error"):
            outputs.append(nbformat.v4.output_from_msg(reply))
    return outputs


def start_hub(folder: Path, users: list[str], image: Image, timeout: float = 120) -> Hub:
    """Write the configuration into `folder` and start the hub there, its users' servers in
    `image`; returns once its REST API answers through the proxy."""
    proxy = proxy_command()
    if proxy is None:
        raise HubError(f"{PROXY_COMMAND} is not installed")
    (folder / "homes").mkdir(parents=True, exist_ok=True)
    port = free_port()
    # The image's command, as hub/Dockerfile's CMD runs it; the variables the image's processes
    # start with, and the pod's OS user (see students_image.AS_OS_USER).
    cmd = [str(image.python), str(image.srv / "hub" / "start.py"), "jupyterhub-singleuser"]
    environment = {key: image.env[key] for key in ("PATH", "JUPYTER_PATH",
                                                   "JUPYTER_PREFER_ENV_PATH")}
    environment[AS_OS_USER] = "jovyan"
    config = CONFIG.substitute(
        port=port, hub_port=free_port(), proxy_api_port=free_port(), proxy=repr(proxy),
        users=repr(set(users)), homes=repr(str(folder / "homes")), cmd=repr(cmd),
        environment=repr(environment))
    (folder / "jupyterhub_config.py").write_text(config)
    log = folder / "jupyterhub.log"
    env = {key: value for key, value in os.environ.items() if not key.startswith("JUPYTERHUB_")}
    # The hub's PATH starts with this environment, as a hub's image would have it.
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    start = time.monotonic()
    with log.open("w") as log_file:
        process = subprocess.Popen([str(BIN / "jupyterhub"), "-f", "jupyterhub_config.py"],
                                   cwd=folder, env=env, stdout=log_file,
                                   stderr=subprocess.STDOUT)
    hub = Hub(url=f"http://127.0.0.1:{port}", folder=folder, process=process, started_in=0.0,
              log=log)
    while time.monotonic() - start < timeout:
        if process.poll() is not None:
            raise hub.fail(f"the hub exited at start with status {process.returncode}")
        try:
            if requests.get(hub.url + "/hub/api/", timeout=5).status_code == 200:
                hub.started_in = time.monotonic() - start
                return hub
        except requests.ConnectionError:
            pass
        time.sleep(0.2)
    hub.stop()
    raise hub.fail(f"the hub's API did not answer within {timeout:.0f} s")
