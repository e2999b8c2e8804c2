"""Run golden programs (written for PyTorch) against minigrad, or against real torch.

Usage:
    python tests/golden/run_as_torch.py PROGRAM.py          # run one program with minigrad as torch
    python tests/golden/run_as_torch.py --real-torch PROGRAM.py
    python tests/golden/run_as_torch.py --batch OUT.json PROGRAM.py...

`import torch` (and `torch.nn`, `torch.nn.functional`, `torch.optim`, `torch.autograd`, ...)
inside the program then gives minigrad's modules. Warnings that a program does not capture
itself are printed as "Category: message", without a file name or line number, so that
outputs do not depend on where the code lives.

Batch mode (used by tests/test_golden.py) imports minigrad once, then runs each program in a
forked child process, as many at a time as there are CPUs (GOLDEN_JOBS overrides), or, where
fork is missing, in a fresh subprocess, and writes a JSON object
{program file name: {"stdout", "stderr", "status"}} to OUT.json ("-" for standard output).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import json
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))

# Submodules that `import torch` makes available as attributes in real PyTorch.
SUBMODULES = ("autograd", "nn", "nn.functional", "optim")

# Separates a program's stderr from its stdout in a recorded output.
STDERR_MARKER = "----- stderr -----\n"

# Seconds a single program may run before its child is killed.
TIMEOUT = int(os.environ.get("GOLDEN_TIMEOUT", "60"))


def _format_warning(message, category, filename, lineno, line=None):  # noqa: ARG001
    return f"{category.__name__}: {message}\n"


def quiet_warning_paths() -> None:
    """Print uncaptured warnings without the file name and line number."""
    warnings.formatwarning = _format_warning


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes `import torch.X.Y` import `minigrad.X.Y` for any submodule not aliased yet."""

    def find_spec(self, fullname, path, target=None):  # noqa: ARG002
        if fullname == "torch" or fullname.startswith("torch."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("minigrad" + spec.name[len("torch"):])

    def exec_module(self, module):  # the aliased module is already executed
        pass


def install_minigrad_as_torch() -> None:
    """Put minigrad in sys.modules under the name torch (raises if minigrad cannot be imported)."""
    if REPO_ROOT not in sys.path:
        sys.path.insert(0, REPO_ROOT)
    if not any(isinstance(f, _TorchAlias) for f in sys.meta_path):
        sys.meta_path.insert(0, _TorchAlias())
    import minigrad

    sys.modules["torch"] = minigrad
    for sub in SUBMODULES:
        try:
            sys.modules["torch." + sub] = importlib.import_module("minigrad." + sub)
        except Exception:  # noqa: BLE001 - a program importing it will show the error itself
            pass


def run_program(path: str) -> None:
    """Execute a program file as __main__."""
    sys.argv = [path]
    runpy.run_path(path, run_name="__main__")


def combine(stdout: str, stderr: str, status: int) -> str:
    """The text stored in an expected file: stdout, then stderr and a bad exit status if any."""
    text = stdout
    if stderr:
        if text and not text.endswith("\n"):
            text += "\n"
        text += STDERR_MARKER + stderr
    if status != 0:
        if text and not text.endswith("\n"):
            text += "\n"
        text += f"----- exit status {status} -----\n"
    return text


def _child_main(path: str, install: bool) -> int:
    try:
        if install:
            install_minigrad_as_torch()
        quiet_warning_paths()
        run_program(path)
    except SystemExit as e:
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        return 1
    return 0


def _start_forked(path: str) -> tuple[int, object, object]:
    """Fork a child that runs the program with its stdout and stderr sent to temporary files."""
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child
        code = 1
        try:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            signal.alarm(TIMEOUT)
            code = _child_main(path, install="torch" not in sys.modules)
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            code = 1
        os._exit(code & 0xFF if isinstance(code, int) else 1)
    return pid, out, err


def _finish_forked(status: int, out, err) -> dict:
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
    with out, err:
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if code == -signal.SIGALRM:
        stderr += f"killed after {TIMEOUT} s\n"
    return {"stdout": stdout, "stderr": stderr, "status": code}


def _run_forked(path: str) -> dict:
    pid, out, err = _start_forked(path)
    _, status = os.waitpid(pid, 0)
    return _finish_forked(status, out, err)


def _run_subprocess(path: str, real_torch: bool = False) -> dict:
    cmd = [sys.executable, os.path.abspath(__file__)]
    if real_torch:
        cmd.append("--real-torch")
    cmd.append(path)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=child_env())
    except subprocess.TimeoutExpired as e:
        return {"stdout": e.stdout or "", "stderr": f"killed after {TIMEOUT} s\n", "status": -9}
    return {"stdout": proc.stdout, "stderr": proc.stderr, "status": proc.returncode}


def child_env() -> dict:
    """The environment programs run in: no PYTHON* variables but a fixed hash seed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONIOENCODING"] = "utf-8"
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


def run_batch(paths: list[str], jobs: int | None = None) -> dict[str, dict]:
    """Run every program with minigrad as torch, each in its own process, `jobs` at a time."""
    jobs = max(1, jobs or int(os.environ.get("GOLDEN_JOBS", "0")) or os.cpu_count() or 1)
    results = {}
    if not hasattr(os, "fork"):
        for path in paths:
            results[os.path.basename(path)] = _run_subprocess(path)
        return results
    try:
        install_minigrad_as_torch()
    except Exception:  # noqa: BLE001 - each child retries and reports the error
        for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
            del sys.modules[name]
    pending = list(paths)
    running = {}
    while pending or running:
        while pending and len(running) < jobs:
            path = pending.pop(0)
            pid, out, err = _start_forked(path)
            running[pid] = (path, out, err)
        pid, status = os.waitpid(-1, 0)
        if pid not in running:
            continue
        path, out, err = running.pop(pid)
        results[os.path.basename(path)] = _finish_forked(status, out, err)
    return {os.path.basename(p): results[os.path.basename(p)] for p in paths}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--batch"]:
        if len(argv) < 2:
            print(__doc__, file=sys.stderr)
            return 2
        target, paths = argv[1], [os.path.abspath(p) for p in argv[2:]]
        results = run_batch(paths)
        text = json.dumps(results)
        if target == "-":
            sys.stdout.write(text)
        else:
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
        return 0
    real = False
    if argv[:1] == ["--real-torch"]:
        real, argv = True, argv[1:]
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    path = os.path.abspath(argv[0])
    if not real:
        install_minigrad_as_torch()
    quiet_warning_paths()
    run_program(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
