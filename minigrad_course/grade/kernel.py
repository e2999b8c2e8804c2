"""Run code cells one by one in a fresh Jupyter kernel, recording for each what it printed and
the exception it raised, so that one failing cell never stops the others. A cell that runs
longer than the time limit is interrupted (KeyboardInterrupt) and reported as timed out.

jupyter_client alone is enough (nbclient would bring nbformat and jsonschema, which take longer
to import than the whole grading of a notebook)."""
from __future__ import annotations

import os
import queue
import re
import site
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# ipykernel compiles each cell as a temporary file named by a hash: "(3470.py, line 2)".
CELL_FILE = re.compile(r"\(\d+\.py, line (\d+)\)")
INTERRUPT_GRACE_S = 10.0  # how long an interrupted cell gets to stop
MAX_PRINTED = 20_000  # characters kept of what a cell prints (a print loop can be endless)
MAX_RESTARTS = 3  # after that many broken kernels, the remaining cells are not run
# Set in the grading kernel: the grading cell at the end of a notebook sees it and does not
# start a grading of its own (see this_notebook).
GRADING_ENV = "MINIGRAD_GRADING"


@dataclass
class Outcome:
    printed: str = ""  # stdout, and the plain text of displayed objects (a check's success)
    error: str | None = None  # the exception's class name, e.g. "CheckFailed"
    message: str = ""  # the exception's message
    timed_out: bool = False
    broke_kernel: bool = False  # killed it, or kept it busy after the interrupt
    ran: bool = True


def run_cells(sources: list[str], cwd: Path, timeout: float) -> list[Outcome]:
    """One Outcome per source. A cell that kills the kernel, or keeps it busy after the
    interrupt, costs only itself: the kernel is restarted, the cells before it are replayed
    (their outcomes were already recorded) and the run goes on."""
    from jupyter_client import KernelManager

    manager = KernelManager(kernel_name="python3")
    # The kernel's own log lines on stderr are not the learner's output.
    manager.start_kernel(cwd=str(cwd), stderr=subprocess.DEVNULL, env=_kernel_env())
    client = _connect(manager)
    outcomes: list[Outcome] = []
    restarts = 0
    try:
        for index, source in enumerate(sources):
            outcome, usable = _run_one(manager, client, source, timeout)
            outcomes.append(outcome)
            if usable:
                continue
            outcome.broke_kernel = True
            if restarts == MAX_RESTARTS:
                break
            restarts += 1
            client.stop_channels()
            manager.restart_kernel(now=True)
            client = _connect(manager)
            for earlier, done in zip(sources[:index], outcomes):
                if not (done.timed_out or done.broke_kernel):
                    _run_one(manager, client, earlier, timeout)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return outcomes + [Outcome(ran=False) for _ in sources[len(outcomes):]]


def _kernel_env() -> dict[str, str]:
    """The kernel runs in the notebook's folder, wherever that is: it must import the minigrad
    and minigrad_course this grader comes from, also when they are importable only from the
    folder the grader was started in (a checkout, not installed). Installed ones need nothing."""
    import minigrad
    import minigrad_course

    env = dict(os.environ, **{GRADING_ENV: "1"})
    installed = {Path(folder).resolve() for folder in site.getsitepackages()}
    # The folder each package was imported from: the one above the package's own folder.
    roots = {Path(package.__path__[0]).resolve().parent for package in (minigrad, minigrad_course)}
    paths = [str(root) for root in sorted(roots - installed)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def _connect(manager: Any) -> Any:
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    return client


def _run_one(manager: Any, client: Any, source: str,
             timeout: float) -> tuple[Outcome, bool]:
    """Execute one cell; returns its outcome and whether the kernel can take the next one."""
    outcome = Outcome()
    msg_id = client.execute(source, store_history=True, allow_stdin=False, stop_on_error=False)
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            if outcome.timed_out:  # interrupted, and still busy: give up on this kernel
                outcome.message = "the kernel could not be stopped"
                return outcome, False
            outcome.timed_out = True
            manager.interrupt_kernel()
            deadline = time.monotonic() + INTERRUPT_GRACE_S
            continue
        try:
            message = client.get_iopub_msg(timeout=min(remaining, 1.0))
        except queue.Empty:
            if not manager.is_alive():
                return Outcome(error="DeadKernelError", message="the kernel died"), False
            continue
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = message["msg_type"], message["content"]
        if kind == "stream" and content.get("name") == "stdout":
            _record(outcome, content.get("text", ""))
        elif kind in ("display_data", "execute_result"):
            _record(outcome, content.get("data", {}).get("text/plain", "") + "\n")
        elif kind == "error":
            outcome.error = content.get("ename", "Exception")
            outcome.message = CELL_FILE.sub(r"(line \1)", content.get("evalue", ""))
        elif kind == "status" and content.get("execution_state") == "idle":
            return outcome, True


def _record(outcome: Outcome, text: str) -> None:
    if len(outcome.printed) < MAX_PRINTED:
        outcome.printed += text[:MAX_PRINTED]
