"""The judge's handle on one notebook's worker (`runner`, in the sandbox `sandbox` gives):
run a cell, send a probe, read the reply as data, stop a cell that runs too long, start a new
worker (replaying the cells before) when one dies, and end every process it started.

A reply is read as `_data` (checked JSON of limited size), never unpickled, and a worker that
sends anything else is treated as dead. The judge never waits on a worker longer than the
cell's deadline plus a grace period."""
from __future__ import annotations

import compileall
import functools
import os
import py_compile
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..checks._data import BadData, decode, encode
from ..checks._notebook import GRADING_ENV
from .runner import HEADER, MAX_PRINTED, MEMORY_ENV, capped
from .sandbox import COURSE, NAMESPACES, NONE, Sandbox

INTERRUPT_GRACE_S = 5.0  # how long an interrupted cell gets to stop
START_TIMEOUT_S = 60.0  # how long a worker may take to import everything and say it is ready
MAX_RESTARTS = 3  # after that many broken workers, the remaining cells are not run
MEMORY_MB = 2048.0  # what a worker may map by default: every solution passes with 400
MAX_REPLY = 1 << 26  # bytes: a longer reply is not from our runner


class NamespacePackage(RuntimeError):
    """minigrad or minigrad_course was imported from a folder that is not the package."""


@dataclass
class Outcome:
    printed: str = ""  # what the cell printed, and the plain text of what it displayed
    error: str | None = None  # the exception's class name, e.g. "ZeroDivisionError"
    message: str = ""  # the exception's message (capped)
    timed_out: bool = False
    out_of_time: bool = False  # stopped, or not run, because the notebook's time was used up
    broke_kernel: bool = False  # killed it, kept it busy after the interrupt, or called exit()
    exited: bool = False  # called exit() or quit()
    ran: bool = True
    reply: dict = field(default_factory=dict)  # a probe's reply, as data


def packages() -> list[Path]:
    """The folders of minigrad and minigrad_course as this grader imported them: regular
    packages only. A folder named like one in the current folder (a clone named `minigrad`)
    is a namespace package to Python, and is never what a worker should import."""
    import minigrad
    import minigrad_course

    found = []
    for package in (minigrad, minigrad_course):
        if getattr(package, "__file__", None) is None:
            raise NamespacePackage(f"`import {package.__name__}` found the folder "
                                   f"{list(package.__path__)[0]}, not the package")
        found.append(Path(package.__file__).parent)
    return found


@functools.cache
def _library() -> dict[str, bytes]:
    """minigrad and minigrad_course, with their bytecode, in memory, once per grader."""
    with tempfile.TemporaryDirectory() as temp:
        for source in packages():
            shutil.copytree(source, Path(temp) / source.name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        # Unchecked: the copies' modification times differ from the bytecode's sources'.
        compileall.compile_dir(temp, quiet=2,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        return {str(path.relative_to(temp)): path.read_bytes()
                for path in Path(temp).rglob("*") if path.is_file()}


def write_library(folder: Path) -> Path:
    for name, data in _library().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return folder


class Worker:
    """One worker process and the pipes to it."""

    def __init__(self, sandbox: Sandbox, uid: int | None, work: Path, library: Path,
                 modules: list[str], memory: float) -> None:
        inside = COURSE if sandbox.mode == NAMESPACES else str(library)
        # The runner's file, run as a script: the grader's own modules are not imported there.
        argv = [sys.executable, "-I", f"{inside}/minigrad_course/grade/runner.py", inside]
        env = {GRADING_ENV: "1", MEMORY_ENV: f"{memory:g}", "PYTHONDONTWRITEBYTECODE": "1",
               # one BLAS thread per worker: --jobs runs several side by side
               "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               **{name: os.environ[name] for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
                  if name in os.environ}}
        if sandbox.mode == NAMESPACES:  # IPython's folder in the worker's own /tmp, not beside
            env["IPYTHONDIR"] = "/tmp/.ipython"  # the notebook
        if sandbox.mode == NONE:
            command, cwd = argv, work
            env = dict(os.environ, **env)
        else:
            config = sandbox.config(uid, work, library, argv, env)
            command, cwd = sandbox.command(config), "/"
        self.sandbox = sandbox
        self.process = subprocess.Popen(command, cwd=cwd, env=env if sandbox.mode == NONE else
                                        None, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        self.replies: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send({"modules": modules})
        ready = self.receive(time.monotonic() + START_TIMEOUT_S)
        if not isinstance(ready, dict) or not ready.get("ready"):
            self.kill()
            raise RuntimeError("the grading worker did not start")

    def _send(self, message: dict) -> bool:
        data = encode(message).encode()
        try:
            self.process.stdin.write(HEADER.pack(len(data)) + data)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def _read(self) -> None:
        """On a thread of its own: each reply into the queue, then None when the worker's
        pipe closes (it died) or carries something that is not a reply."""
        with self.process.stdout as stream:
            while True:
                try:
                    header = stream.read(HEADER.size)
                    (size,) = HEADER.unpack(header) if len(header) == HEADER.size else (None,)
                    data = stream.read(size) if size is not None and size <= MAX_REPLY else b""
                    reply = decode(data) if size is not None and len(data) == size else None
                except (OSError, BadData):
                    reply = None
                self.replies.put(reply if isinstance(reply, dict) else None)
                if not isinstance(reply, dict):
                    return

    def receive(self, deadline: float) -> dict | str | None:
        """The next reply; "timeout" when the deadline passed first; None when the worker
        died (or sent something that is not a reply)."""
        try:
            return self.replies.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return "timeout"

    def ask(self, request: dict, deadline: float, budget_deadline: float) -> tuple[Outcome, bool]:
        """Send a cell or a probe; its outcome, and whether the worker can take the next one."""
        outcome = Outcome()
        if not self._send(request):
            return Outcome(error="DeadKernelError", message="the kernel died"), False
        reply = self.receive(deadline)
        if reply == "timeout":
            outcome.timed_out = True
            outcome.out_of_time = deadline >= budget_deadline
            self.interrupt()
            reply = self.receive(time.monotonic() + INTERRUPT_GRACE_S)
            if not isinstance(reply, dict):
                outcome.message = "the kernel could not be stopped"
                return outcome, False
        if not isinstance(reply, dict):
            return Outcome(error="DeadKernelError", message="the kernel died"), False
        outcome.reply = reply
        outcome.printed = str(reply.get("printed", ""))[:MAX_PRINTED]
        if reply.get("status") != "ok":
            outcome.error = capped(str(reply.get("ename") or "Exception"), 100)
            outcome.message = capped(str(reply.get("evalue", "")))
        if reply.get("exited"):
            outcome.exited = True
            return outcome, False
        return outcome, True

    def interrupt(self) -> None:
        try:
            os.kill(self.process.pid, signal.SIGINT)
        except ProcessLookupError:
            pass

    def finish(self) -> None:
        """End it the polite way first (its pipe closed, it exits, and its parents with it, so
        that its CPU time is counted as this grader's children's), then kill what is left."""
        try:
            self.process.stdin.close()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()

    def kill(self) -> None:
        try:  # the whole group (and, in namespaces, the launcher, with which all else dies)
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.wait()  # its stdout closes: the reading thread ends


class Session:
    """A notebook's run: cells and probes in order, in one worker while it lives. A cell that
    kills it, calls exit() or keeps it busy after the interrupt costs only itself: a new worker
    replays the cells before it (their outcomes were already recorded) and the run goes on."""

    def __init__(self, sandbox: Sandbox, library: Path, notebook: tuple[str, bytes],
                 modules: list[str], timeout: float, budget: float, memory: float) -> None:
        self.sandbox, self.library, self.modules = sandbox, library, modules
        self.timeout, self.memory = timeout, memory
        self.budget_deadline = time.monotonic() + budget
        self.replay: list[str] = []
        self.restarts = 0
        self.lease = sandbox.lease() if sandbox.mode != NONE else None
        self.uid = self.lease.__enter__() if self.lease is not None else None
        self.root = Path(tempfile.mkdtemp(prefix="minigrad-grade-"))
        self.work = self.root / "notebook"
        self.work.mkdir()
        (self.work / Path(notebook[0]).name).write_bytes(notebook[1])
        if self.uid is not None:  # the worker's own folder, readable by it alone
            os.chmod(self.root, 0o711)
            for path in (self.work, *self.work.iterdir()):
                os.chown(path, self.uid, self.uid)
            os.chmod(self.work, 0o700)
        if sandbox.mode == NONE:  # the same user as the grader: a copy of its own to spoil
            self.library = write_library(self.root / "lib")
        self.worker: Worker | None = None
        self.dead = False

    def _start(self) -> Worker:
        if self.uid is not None and self.restarts:
            from .sandbox import gone, kill_all

            kill_all(self.uid)  # what the last worker left is gone before the next starts
            gone(self.uid)
        return Worker(self.sandbox, self.uid, self.work, self.library, self.modules,
                      self.memory)

    def out_of_time(self) -> bool:
        return time.monotonic() >= self.budget_deadline

    def ask(self, request: dict) -> Outcome:
        """One cell ({"source": ...}) or probe; Outcome(ran=False) once the run has stopped."""
        if self.dead or self.out_of_time():
            return Outcome(ran=False, out_of_time=self.out_of_time())
        if self.worker is None:
            self.worker = self._start()
            for source in self.replay:
                self.worker.ask({"source": source}, self._deadline(), self.budget_deadline)
        outcome, usable = self.worker.ask(request, self._deadline(), self.budget_deadline)
        if usable:
            if "source" in request and not outcome.timed_out:
                self.replay.append(request["source"])
            return outcome
        outcome.broke_kernel = True
        self.worker.kill()
        self.worker = None
        self.restarts += 1
        self.dead = self.restarts > MAX_RESTARTS
        return outcome

    def _deadline(self) -> float:
        return min(time.monotonic() + self.timeout, self.budget_deadline)

    def close(self) -> None:
        if self.worker is not None:
            self.worker.finish()
        if self.lease is not None:
            self.lease.__exit__(None, None, None)
        shutil.rmtree(self.root, ignore_errors=True)
