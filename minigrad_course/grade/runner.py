"""The grading kernel: `runner.main()` in a fresh process per notebook, started by
`kernel.run_cells`. It runs cells one at a time in an IPython shell, as Jupyter's
kernel does (same `get_ipython()`, display, exceptions), without Jupyter's messaging, whose
start-up cost more than grading a notebook.

Messages are length-prefixed JSON on the pipes it was started with (then moved off fds 0-2, so
that nothing a cell prints at the C level can garble them). Before any learner's code runs it
imports everything the checks use and takes a `_integrity.Snapshot`; then for a check cell it
1. refuses to run it ("Tampered") if the notebook replaced anything watched,
2. binds the names the notebook's import cells gave the check modules (`check`) again, and
   puts back the shell's own hooks on a cell (`cell_hooks`), as they were at start,
3. runs it, counting the successes the checks report through `_feedback.on_success`,
4. looks for tampering again (the learner's functions ran during the check), and
5. signs [nonce, the cell's hash, the successes] with the key the grader sent at start.
The grader counts a check as passed only with that signature: a cell that skips the check, or a
forged reply, has none. Code in this process could still find the key; docs/teaching.md says
what in-process grading cannot stop."""
from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import signal
import struct
import sys
from hashlib import sha256
from hmac import new as new_hmac
from json import dumps
from typing import Any, BinaryIO

MAX_MESSAGE = 2_000  # characters kept of an exception's message or of a success line
MAX_PRINTED = 20_000  # characters kept of what a cell prints (a print loop can be endless)
MAX_SUCCESSES = 50  # success lines kept of one check cell
MAX_FILE = 100 << 20  # bytes a notebook may write to any one file
MEMORY_ENV = "MINIGRAD_GRADING_MEMORY"  # MiB of memory the kernel may map (the grader sets it)
HEADER = struct.Struct(">I")  # the length of each JSON message
# IPython compiles each cell under a name like "<ipython-input-3-1a2b3c>", ipykernel as
# "/tmp/ipykernel_1/3470.py": a message says "(line 2)" instead.
CELL_FILE = re.compile(r"\((?:<ipython-input-[^>]*>|[^()]*\d+\.py), line (\d+)\)")


def send(stream: BinaryIO, message: dict) -> None:
    data = json.dumps(message).encode()
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream: BinaryIO, limit: int = 1 << 24) -> dict | None:
    """The next message, or None at the end of the stream (or on a garbled one)."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    if size > limit:
        return None
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    try:
        return json.loads(data)
    except ValueError:
        return None


def signature(key: bytes, nonce: str, source: str, successes: list[str]) -> str:
    # The functions are bound on import, before any learner's code: a cell that replaces
    # hmac.new with a spy does not get the key handed to it.
    digest = sha256(source.encode()).hexdigest()
    return new_hmac(key, dumps([nonce, digest, successes]).encode(), sha256).hexdigest()


def capped(text: str, limit: int = MAX_MESSAGE) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f" ... ({len(text) - limit} more characters)"


class Printed:
    """sys.stdout while a cell runs: keeps the first MAX_PRINTED characters."""

    encoding = "utf-8"

    def __init__(self, keep: bool = True) -> None:
        self.text, self.keep = "", keep

    def write(self, text: Any) -> int:
        text = str(text)
        if self.keep and len(self.text) < MAX_PRINTED:
            self.text += text[:MAX_PRINTED - len(self.text)]
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True


def _shell() -> Any:
    """An IPython shell that keeps no history file and formats no traceback (the grader reads
    the exception itself)."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class QuietHook(DisplayHook):
        def write_output_prompt(self) -> None:  # no "Out[3]:" before a cell's value
            pass

    class GradingShell(InteractiveShell):
        def showtraceback(self, *args: Any, **kwargs: Any) -> None:
            pass

        def _showtraceback(self, *args: Any, **kwargs: Any) -> None:
            pass

        def showsyntaxerror(self, *args: Any, **kwargs: Any) -> None:
            pass

        def ask_exit(self) -> None:  # exit() and quit(), as in Jupyter's kernel
            self.exit_now = True

    config = Config()
    config.HistoryManager.enabled = False
    return GradingShell.instance(config=config, displayhook_class=QuietHook, colors="NoColor")


def _preload() -> None:
    """Import all of minigrad and of the course's checks and grader now, from the grader's copy,
    before any learner's code: later imports would read files a notebook could have changed."""
    import numpy  # noqa: F401

    import minigrad
    import minigrad_course.checks
    import minigrad_course.grade

    for package in (minigrad, minigrad_course.checks, minigrad_course.grade):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)


def cell_hooks(shell: Any) -> list[tuple[Any, str, Any]]:
    """(owner, name, a copy of its value) for each hook through which a notebook's code can
    change what a later cell runs, or report when it has run: IPython's input transformers,
    AST transformers and events. An answer cell that adds one (rewriting each check cell into
    forged successes, or emptying it) is undone before every check cell."""
    manager = shell.input_transformer_manager
    hooks = [(shell, "ast_transformers"), (shell, "input_transformers_post"),
             (manager, "cleanup_transforms"), (manager, "line_transforms"),
             (manager, "token_transformers")]
    saved = [(owner, name, list(getattr(owner, name))) for owner, name in hooks]
    callbacks = shell.events.callbacks
    saved += [(callbacks, event, list(functions)) for event, functions in callbacks.items()]
    return saved


def _put_back(saved: list[tuple[Any, str, Any]]) -> None:
    for owner, name, value in saved:
        current = owner[name] if isinstance(owner, dict) else getattr(owner, name)
        current[:] = value  # in place: IPython holds these lists under other names too


def _error(exception: BaseException) -> tuple[str, str]:
    try:
        message = str(exception)
    except Exception:  # noqa: BLE001 - a learner's exception whose str() fails
        message = ""
    return type(exception).__name__, CELL_FILE.sub(r"(line \1)", capped(message))


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    shell = _shell()
    _preload()
    from minigrad_course.checks import _feedback, _integrity

    successes: list[str] = []
    def count(text: str) -> None:
        if len(successes) < MAX_SUCCESSES:
            successes.append(capped(str(text)))

    _feedback.on_success = count
    _feedback._PRISTINE = snapshot = _integrity.Snapshot()  # on_success as set just now
    hooks = cell_hooks(shell)
    hello = receive(requests)
    if hello is None:
        return
    key = bytes.fromhex(hello["key"])
    check_modules = {name: sys.modules[name] for name in hello.get("check_modules", [])
                     if name in sys.modules}
    send(replies, {"ready": True})
    while True:
        request = receive(requests)
        if request is None:
            return
        reply = _run(shell, request, snapshot, successes, key, check_modules, hooks)
        send(replies, reply)
        if reply.get("exited"):
            return


def _run(shell: Any, request: dict, snapshot: Any, successes: list[str], key: bytes,
         check_modules: dict, hooks: list) -> dict:
    source, check = request["source"], request.get("check")
    if check is not None:
        changed = snapshot.changes()
        if changed:
            from minigrad_course.checks._integrity import describe

            return {"status": "error", "ename": "Tampered",
                    "evalue": f"the notebook's code replaced {describe(changed)}"}
        for name, module in check.get("restore", {}).items():
            if module in check_modules:
                shell.user_ns[name] = check_modules[module]
        _put_back(hooks)
    successes.clear()
    printed = Printed()
    sys.stdout, sys.stderr = printed, Printed(keep=False)
    try:
        result = shell.run_cell(source, store_history=True)
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    reply: dict = {"status": "ok", "printed": printed.text}
    error = result.error_before_exec or result.error_in_exec
    if error is not None:
        reply["status"] = "error"
        reply["ename"], reply["evalue"] = _error(error)
    if getattr(shell, "exit_now", False):
        reply["exited"] = True
    if check is not None and reply["status"] == "ok":
        changed = snapshot.changes()
        if changed:
            from minigrad_course.checks._integrity import describe

            reply.update(status="error", ename="Tampered",
                         evalue=f"the notebook's code replaced {describe(changed)}")
        else:
            reply["successes"] = list(successes)
            reply["signature"] = signature(key, check["nonce"], source, reply["successes"])
    return reply


def _limit_resources() -> None:
    """Memory (MEMORY_ENV, in MiB, set by the grader) and the size of any file written: a
    notebook that allocates or writes without end gets MemoryError or OSError in its own cell,
    and leaves the machine to the other notebooks."""
    try:
        import resource
    except ImportError:  # Windows
        return
    megabytes = os.environ.pop(MEMORY_ENV, "")
    if megabytes:
        size = int(float(megabytes) * (1 << 20))
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_FILE, MAX_FILE))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it raises instead of killing


def main() -> None:
    # The pipes to the grader move to fds of their own; 0-2 go to /dev/null, so a cell's
    # os.write(1, ...) or a C library's output cannot garble a message.
    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    replies = os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # the grader's interrupt
    _limit_resources()
    serve(requests, replies)
    os._exit(0)  # no atexit handler of a learner's runs after grading

