"""Run a notebook's cells one by one in a fresh grading kernel (`runner`, a process of its own),
recording for each what it printed, the exception it raised, and for a check cell the successes
the checks reported, signed by the kernel. One failing cell never stops the others.

Each kernel starts in a temporary folder of its own that holds only the notebook, and imports
minigrad and minigrad_course from a copy of them written there for it alone: a notebook that
deletes files around it or appends to a check module reaches only its own copies. A cell that
runs longer than its time limit is interrupted (KeyboardInterrupt), and killed if it goes on; a
notebook that uses up its whole time limit has its remaining cells not run."""
from __future__ import annotations

import compileall
import functools
import hmac
import json
import os
import py_compile
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..checks._notebook import GRADING_ENV
from .runner import HEADER, MAX_PRINTED, MAX_SUCCESSES, MEMORY_ENV, capped, signature

INTERRUPT_GRACE_S = 5.0  # how long an interrupted cell gets to stop
START_TIMEOUT_S = 60.0  # how long a kernel may take to import everything and say it is ready
MAX_RESTARTS = 3  # after that many broken kernels, the remaining cells are not run
MEMORY_MB = 2048.0  # what a kernel may map by default: every solution passes with 400
MAX_REPLY = 1 << 24  # bytes: a longer reply is not from our runner (it caps what it sends)
__all__ = ["GRADING_ENV", "Cell", "Outcome", "run_cells"]


@dataclass
class Cell:
    source: str
    # For a check cell: the names to bind again to their check modules before it runs
    # ({"check": "minigrad_course.checks.accumulation"}). None for any other cell.
    restore: dict[str, str] | None = None


@dataclass
class Outcome:
    printed: str = ""  # what the cell printed, and the plain text of what it displayed
    error: str | None = None  # the exception's class name, e.g. "CheckFailed"
    message: str = ""  # the exception's message (capped)
    timed_out: bool = False
    out_of_time: bool = False  # stopped, or not run, because the notebook's time was used up
    broke_kernel: bool = False  # killed it, kept it busy after the interrupt, or called exit()
    exited: bool = False  # called exit() or quit()
    ran: bool = True
    # A check cell's success lines, when the kernel's signature on them is right; else None.
    successes: list[str] | None = field(default=None)


class _Kernel:
    """One grading process and the pipes to it."""

    def __init__(self, cwd: Path, library: Path, check_modules: list[str],
                 memory: float) -> None:
        env = dict(os.environ, **{GRADING_ENV: "1", "PYTHONPATH": str(library),
                                  MEMORY_ENV: f"{memory:g}",
                                  # one BLAS thread per kernel: --jobs runs several side by side
                                  "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                                  "MKL_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"})
        self.process = subprocess.Popen(
            # not `-m`: the runner's functions must be those of the imported module
            [sys.executable, "-c", "from minigrad_course.grade.runner import main; main()"],
            cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True)  # its own process group: killed with all it started
        self.key = secrets.token_bytes(32)
        self.replies: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send({"key": self.key.hex(), "check_modules": check_modules})
        ready = self.receive(time.monotonic() + START_TIMEOUT_S)
        if not isinstance(ready, dict) or not ready.get("ready"):
            self.kill()
            raise RuntimeError("the grading kernel did not start")

    def _send(self, message: dict) -> bool:
        data = json.dumps(message).encode()
        try:
            self.process.stdin.write(HEADER.pack(len(data)) + data)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def _read(self) -> None:
        """On a thread of its own: each reply into the queue, then None when the kernel's
        pipe closes (it died) or carries something that is not a reply."""
        with self.process.stdout as stream:
            while True:
                try:
                    header = stream.read(HEADER.size)
                    (size,) = HEADER.unpack(header) if len(header) == HEADER.size else (None,)
                    data = stream.read(size) if size is not None and size <= MAX_REPLY else b""
                    reply = json.loads(data) if size is not None and len(data) == size else None
                except (OSError, ValueError):
                    reply = None
                self.replies.put(reply if isinstance(reply, dict) else None)
                if not isinstance(reply, dict):
                    return

    def receive(self, deadline: float) -> dict | str | None:
        """The next reply; "timeout" when the deadline passed first; None when the kernel
        died (or sent something that is not a reply)."""
        try:
            return self.replies.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return "timeout"

    def run(self, cell: Cell, deadline: float, budget_deadline: float) -> tuple[Outcome, bool]:
        """Execute one cell; returns its outcome and whether the kernel can take the next one."""
        nonce = secrets.token_hex(16)
        request: dict = {"source": cell.source}
        if cell.restore is not None:
            request["check"] = {"nonce": nonce, "restore": cell.restore}
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
        outcome.printed = str(reply.get("printed", ""))[:MAX_PRINTED]
        if reply.get("status") != "ok":
            outcome.error = capped(str(reply.get("ename") or "Exception"), 100)
            outcome.message = capped(str(reply.get("evalue", "")))
        if reply.get("exited"):
            outcome.exited = True
            return outcome, False
        successes = reply.get("successes")
        if cell.restore is not None and reply.get("status") == "ok" and \
                isinstance(successes, list) and all(isinstance(s, str) for s in successes) and \
                hmac.compare_digest(str(reply.get("signature", "")),
                                    signature(self.key, nonce, cell.source, successes)):
            outcome.successes = [capped(s) for s in successes[:MAX_SUCCESSES]]
        return outcome, True

    def interrupt(self) -> None:
        if os.name != "posix":  # no SIGINT to send on Windows: the cell is killed after the grace
            return
        try:
            os.kill(self.process.pid, signal.SIGINT)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        try:
            if os.name == "posix":  # the whole group: what the notebook started dies too
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.wait()  # its stdout closes: the reading thread ends


@functools.cache
def _library() -> dict[str, bytes]:
    """minigrad and minigrad_course as this grader imported them, with their bytecode, in
    memory: each kernel gets its own copy on disk, so none can change another's."""
    import minigrad
    import minigrad_course

    with tempfile.TemporaryDirectory() as temp:
        for package in (minigrad, minigrad_course):
            source = Path(package.__path__[0])
            shutil.copytree(source, Path(temp) / source.name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        # Unchecked: the copies' modification times differ from the bytecode's sources'.
        compileall.compile_dir(temp, quiet=2,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        return {str(path.relative_to(temp)): path.read_bytes()
                for path in Path(temp).rglob("*") if path.is_file()}


def _write_library(folder: Path) -> None:
    for name, data in _library().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def run_cells(cells: list[Cell], notebook: tuple[str, bytes], timeout: float,
              budget: float = float("inf"), memory: float = MEMORY_MB) -> list[Outcome]:
    """One Outcome per cell, from a fresh kernel whose folder holds only `notebook` (its file
    name and content). A cell that kills the kernel, calls exit() or keeps it busy after the
    interrupt costs only itself: a new kernel replays the cells before it (their outcomes
    were already recorded) and the run goes on. `budget` is the whole notebook's time,
    `memory` the MiB the kernel may map."""
    check_modules = sorted({module for cell in cells for module in (cell.restore or {}).values()})
    start = time.monotonic()
    budget_deadline = start + budget
    root = Path(tempfile.mkdtemp(prefix="minigrad-grade-"))
    outcomes: list[Outcome] = []
    kernel = None
    try:
        work = root / "notebook"
        work.mkdir()
        (work / Path(notebook[0]).name).write_bytes(notebook[1])
        _write_library(root / "lib")
        kernel = _Kernel(work, root / "lib", check_modules, memory)
        restarts = 0
        for index, cell in enumerate(cells):
            now = time.monotonic()
            if now >= budget_deadline:
                break
            outcome, usable = kernel.run(cell, min(now + timeout, budget_deadline),
                                         budget_deadline)
            outcomes.append(outcome)
            if usable:
                continue
            outcome.broke_kernel = True
            kernel.kill()
            kernel = None
            if restarts == MAX_RESTARTS:
                break
            restarts += 1
            kernel = _Kernel(work, root / "lib", check_modules, memory)
            for earlier, done in zip(cells[:index], outcomes):
                if not (done.timed_out or done.broke_kernel):
                    kernel.run(earlier, min(time.monotonic() + timeout, budget_deadline),
                               budget_deadline)
    finally:
        if kernel is not None:
            kernel.kill()
        shutil.rmtree(root, ignore_errors=True)
    over = time.monotonic() >= budget_deadline
    return outcomes + [Outcome(ran=False, out_of_time=over) for _ in cells[len(outcomes):]]
