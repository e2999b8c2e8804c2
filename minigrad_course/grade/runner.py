"""The grading worker: `runner.main()` in a fresh process per notebook, started by `worker` (in
the sandbox of `sandbox`). It runs the notebook's cells one at a time in an IPython shell, as
Jupyter's kernel does (same `get_ipython()`, display, exceptions), without Jupyter's messaging,
and answers the judge's probes: "call the learner's functions on these inputs" (an `Exercise`'s
`run` half, see minigrad_course.checks._exercise), replying with data only.

Nothing here decides a grade. The learner's code shares this process and may rewrite anything
in it, this file's functions included: whatever it replies is a claim the judge checks against
what it computes itself (minigrad_course.grade.judge).

Messages are length-prefixed JSON on the pipes it was started with (then moved off fds 0-2, so
that nothing a cell prints at the C level can garble them).

A cell sent with "outputs" also comes back with what it showed, as a notebook stores it (streams,
displays, the cell's value): the tests compare a solution's stored outputs with them, so that the
grader's one run of a solution serves as its nbval run too (docs/grading.md)."""
from __future__ import annotations

import importlib
import json
import os
import re
import signal
import struct
import sys
from typing import Any, BinaryIO

MAX_MESSAGE = 2_000  # characters kept of an exception's message
MAX_PRINTED = 20_000  # characters kept of what a cell prints (a print loop can be endless)
MAX_FILE = 100 << 20  # bytes a notebook may write to any one file
MEMORY_ENV = "MINIGRAD_GRADING_MEMORY"  # MiB of memory the worker may map (the grader sets it)
HEADER = struct.Struct(">I")  # the length of each JSON message
# IPython compiles each cell under a name like "<ipython-input-3-1a2b3c>", ipykernel as
# "/tmp/ipykernel_1/3470.py": a message says "(line 2)" instead.
CELL_FILE = re.compile(r"\((?:<ipython-input-[^>]*>|[^()]*\d+\.py), line (\d+)\)")


def send(stream: BinaryIO, data: bytes) -> None:
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream: BinaryIO, limit: int = 1 << 26) -> bytes | None:
    """The next message's bytes, or None at the end of the stream (or past `limit`)."""
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
    return data


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


# What the cell running now showed, as a notebook's outputs, while a cell sent with "outputs" runs.
_shown: list[dict] | None = None


def _kept(output_type: str, data: dict, metadata: dict | None) -> bool:
    """Keep a display (or a cell's value) as an output, when the cell's outputs are asked for;
    else it is printed as plain text, as IPython's shell does."""
    if _shown is None:
        return False
    _shown.append({"output_type": output_type, "data": dict(data),
                   "metadata": dict(metadata or {})})
    return True


def _shell() -> Any:
    """An IPython shell that keeps no history file and formats no traceback."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.displaypub import DisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class QuietHook(DisplayHook):
        def write_output_prompt(self) -> None:  # no "Out[3]:" before a cell's value
            pass

        def write_format_data(self, format_dict: dict, md_dict: dict | None = None) -> None:
            if not _kept("execute_result", format_dict, md_dict):
                super().write_format_data(format_dict, md_dict)

    class KeptDisplays(DisplayPublisher):
        def publish(self, data: dict, metadata: dict | None = None, *args: Any,
                    **kwargs: Any) -> None:
            if not _kept("display_data", data, metadata):
                super().publish(data, metadata, *args, **kwargs)

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
    return GradingShell.instance(config=config, displayhook_class=QuietHook,
                                 display_pub_class=KeptDisplays, colors="NoColor")


def _error(exception: BaseException) -> tuple[str, str]:
    try:
        message = str(exception)
    except Exception:  # noqa: BLE001 - a learner's exception whose str() fails
        message = ""
    return type(exception).__name__, CELL_FILE.sub(r"(line \1)", capped(message))


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    from minigrad_course.checks._data import decode, encode

    shell = _shell()
    hello = receive(requests)
    if hello is None:
        return
    for module in decode(hello).get("modules", []):  # the checks the probes need, loaded first
        importlib.import_module(module)
    send(replies, encode({"ready": True}).encode())
    while True:
        message = receive(requests)
        if message is None:
            return
        request = decode(message)
        reply = _probe(shell, request) if "probe" in request else \
            _run(shell, request["source"], request.get("outputs", False))
        try:
            data = encode(reply).encode()
        except (TypeError, ValueError) as error:  # a reply the learner's code made unwritable
            data = encode({"status": "error", "ename": "BadReply", "evalue": str(error)}).encode()
        send(replies, data)
        if reply.get("exited"):
            return


def _quietly(action: Any, errors: Printed | None = None) -> tuple[Any, str]:
    printed = Printed()
    sys.stdout, sys.stderr = printed, errors or Printed(keep=False)
    try:
        return action(), printed.text
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__


def _run(shell: Any, source: str, outputs: bool = False) -> dict:
    global _shown
    from minigrad_course.checks import _notebook
    from minigrad_course.checks._data import MAX_TEXT

    errors = Printed(keep=outputs)
    _shown = [] if outputs else None
    _notebook.outputs_kept = outputs
    try:
        result, printed = _quietly(lambda: shell.run_cell(source, store_history=True), errors)
        shown = _shown
    finally:
        _shown, _notebook.outputs_kept = None, False
    reply: dict = {"status": "ok", "printed": printed}
    error = result.error_before_exec or result.error_in_exec
    if error is not None:
        reply["status"] = "error"
        reply["ename"], reply["evalue"] = _error(error)
    if shown is not None:
        streams = [{"output_type": "stream", "name": name, "text": text}
                   for name, text in (("stdout", printed), ("stderr", errors.text)) if text]
        if error is not None:
            shown.append({"output_type": "error", "ename": reply["ename"],
                          "evalue": reply["evalue"]})
        # As JSON in pieces: a reply's texts are cut at MAX_TEXT, a diagram is longer.
        shown_json = json.dumps(streams + shown)
        reply["outputs"] = [shown_json[at:at + MAX_TEXT] for at in
                            range(0, len(shown_json), MAX_TEXT)]
    if getattr(shell, "exit_now", False):
        reply["exited"] = True
    return reply


def _probe(shell: Any, request: dict) -> dict:
    """Run one check's `run` half on each case the judge drew, with the learner's functions
    as the notebook's namespace holds them now."""
    probe = request["probe"]
    try:
        exercise = getattr(importlib.import_module(probe["module"]), probe["check"])
        missing = [name for name in probe["names"] if name not in shell.user_ns]
        if missing:
            return {"status": "ok", "missing": missing}
        functions = tuple(shell.user_ns[name] for name in probe["names"])
        results, _ = _quietly(lambda: [exercise.run_case(functions, case)
                                       for case in probe["cases"]])
        from minigrad_course.integrity.canary import canary

        return {"status": "ok", "results": results, "canary": canary(probe["canary"])}
    except BaseException as error:  # noqa: BLE001 - the judge is told, whatever it was
        ename, evalue = _error(error)
        return {"status": "error", "ename": ename, "evalue": evalue,
                "exited": isinstance(error, SystemExit) or getattr(shell, "exit_now", False)}


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


if __name__ == "__main__":  # python -I .../runner.py FOLDER: the course's packages are there
    sys.path.insert(0, sys.argv[1])
    main()
