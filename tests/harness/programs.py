"""The one runner of programs written for PyTorch: run each on PyTorch 2.13, or unchanged on
minigrad as `torch`, and give what it showed as one transcript. The golden programs
(tests/golden/programs/), the tutorial corpus (tests/corpus/) and the tests that need a fresh
interpreter all go through it; scripts/record_transcripts.py records PyTorch's with it.

A transcript is what a learner sees, in order: what the program printed, each warning as one
line (`UserWarning: ...`, every time it is raised, without the file and line Python adds), and
an uncaught error as one line (`RuntimeError: ...`). Two things that are not behaviour are
dropped on both sides: a node's memory address (`<MulBackward0 object at 0x7f..>`, which
minigrad never prints) and where PyTorch's C++ build kept the source of a warning; and the
classes' own names, `type(t)` of a tensor or a Parameter, are PyTorch's
(`<class 'torch.Tensor'>`) on both.

A batch imports the library once, then runs each program in a forked child (a CPU each), from a
temporary working directory, with PYTHONHASHSEED=0, no other PYTHON* variable and one OpenMP
thread: a program's output does not depend on where, when or after what it ran.

PyTorch's own float32 sqrt (Intel MKL's) rounds correctly on some CPUs and not on others (an
AMD EPYC with AVX-512: one value in six an ulp off), and an Adam loop prints its last digits.
The programs a suite names in `mkl_sqrt` were recorded where it rounds correctly; on a CPU where
it does not, PyTorch runs them with only its float32 sqrt rounded correctly, so that the
comparison stays exact (tests/corpus/README.md). minigrad's sqrt is correctly rounded anywhere.

    python tests/harness/programs.py PROGRAM.py            # its transcript on minigrad
    python tests/harness/programs.py --torch PROGRAM.py    # on PyTorch
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import runpy
import signal
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Collection
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = ("minigrad", "torch")
REFERENCE_VERSION = "2.13."
# Seconds one program may run (a tutorial's training loop on a busy machine) before its child
# is killed.
TIMEOUT = int(os.environ.get("PROGRAM_TIMEOUT", "300"))
# The kernels PyTorch is pinned to wherever tests and programs run: PyTorch picks them by the
# CPU, and on one with AVX-512 its default softmax adds in vectors of 16 floats, which rounds
# otherwise than AVX2's 8. minigrad follows AVX2, which every x86-64 test machine can run
# (minigrad/fidelity/softmax.py says why and what differs). PyTorch reads it when first
# imported: `environment()` sets it for the programs, tests/conftest.py for the tests.
TORCH_CPU_CAPABILITY = "avx2"
ADDRESS = re.compile(r" object at 0x[0-9a-fA-F]+>")
CPP_LOCATION = re.compile(r" \(Triggered internally at [^)]*\.\)")
# The places a library's own name shows: the classes of tensors and parameters, `type(t)`.
CLASS_NAMES = {"<class 'minigrad.tensor.Tensor'>": "<class 'torch.Tensor'>",
               "<class 'minigrad.nn.parameter.Parameter'>":
                   "<class 'torch.nn.parameter.Parameter'>"}
# The submodules loaded with the library, so that each child need not import them.
SUBMODULES = ("nn", "nn.functional", "nn.init", "optim", "autograd", "utils.data")


class _MinigradAsTorch(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import torch.X.Y` gives `minigrad.X.Y`, for every submodule."""

    def find_spec(self, fullname, path, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module("minigrad" + spec.name[len("torch"):])
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module):  # the aliased module is already executed
        # Python's import gave it torch's spec: its own back, or a relative import in it (say in
        # minigrad's module __getattr__) warns that __package__ != __spec__.parent
        module.__spec__ = self.own_spec


def import_library(library: str) -> None:
    """Import PyTorch, or minigrad under the name torch, with the submodules programs use."""
    if library == "minigrad":
        sys.meta_path.insert(0, _MinigradAsTorch())
    importlib.import_module("torch")
    for name in SUBMODULES:
        importlib.import_module(f"torch.{name}")


def torch_sqrt_is_correctly_rounded() -> bool:
    """Whether PyTorch's float32 sqrt gives the correctly rounded value on this CPU, for 10000
    values (on a CPU where it does not, about one in six differs). PyTorch is imported."""
    import numpy as np
    import torch

    x = np.random.default_rng(0).random(10000, dtype=np.float32) * 100
    exact = np.sqrt(x.astype(np.float64)).astype(np.float32)
    return bool(np.array_equal(torch.from_numpy(x).sqrt().numpy(), exact))


def use_correctly_rounded_sqrt() -> None:
    """PyTorch's float32 `sqrt` (Tensor.sqrt, sqrt_ and torch.sqrt, which is what Adam and
    RMSprop call on a CPU) as float64's rounded once to float32: the correctly rounded value,
    also for 0-d tensors and on the graph (a layer norm's `torch.sqrt(var + eps)`).
    Gradient formulas, float64 and every other operation stay PyTorch's."""
    import numpy as np
    import torch

    def rounded(tensor: torch.Tensor) -> torch.Tensor:
        # np.asarray: the square root of a 0-d array is a numpy scalar.
        exact = np.asarray(np.sqrt(tensor.detach().numpy().astype(np.float64)), np.float32)
        return torch.from_numpy(exact).reshape(tensor.shape)

    # The result keeps PyTorch's grad_fn (SqrtBackward0, which saves the result): only its
    # values are corrected, through `.data`, which autograd's version counter does not see.
    def patched(method):
        def sqrt(tensor, *args, **kwargs):
            if tensor.dtype != torch.float32 or args or kwargs:
                return method(tensor, *args, **kwargs)
            result = method(tensor)
            result.data.copy_(rounded(tensor))
            return result
        return sqrt

    def patched_in_place(tensor, *args, **kwargs):
        if tensor.dtype != torch.float32 or args or kwargs:
            return sqrt_in_place(tensor, *args, **kwargs)
        exact = rounded(tensor)
        sqrt_in_place(tensor)
        tensor.data.copy_(exact)
        return tensor

    sqrt_in_place = torch.Tensor.sqrt_
    torch.Tensor.sqrt = patched(torch.Tensor.sqrt)
    torch.sqrt = patched(torch.sqrt)
    torch.Tensor.sqrt_ = patched_in_place


def transcript_of(program: str) -> str:
    """Run the program here (the library imported already) and return its transcript."""
    shown = io.StringIO()

    def show_warning(message, category, filename, lineno, file=None, line=None):
        shown.write(f"{category.__name__}: {message}\n")

    warnings.showwarning = show_warning
    warnings.simplefilter("always")
    sys.argv = [program]
    with redirect_stdout(shown):
        try:
            runpy.run_path(program, run_name="__main__")
        except Exception as error:
            print(f"{type(error).__name__}: {error}")
    shown = CPP_LOCATION.sub("", ADDRESS.sub(" object>", shown.getvalue()))
    for ours, theirs in CLASS_NAMES.items():
        shown = shown.replace(ours, theirs)
    return shown


def _start(program: str, rounded_sqrt: bool) -> tuple[int, object, object]:
    """Fork a child that writes the program's transcript to one file and its stderr to another
    (with PyTorch's float32 sqrt correctly rounded, if `rounded_sqrt`)."""
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child
        code = 1
        try:
            os.dup2(err.fileno(), 2)
            os.chdir(tempfile.mkdtemp(prefix="program-"))
            signal.alarm(TIMEOUT)
            if rounded_sqrt:
                use_correctly_rounded_sqrt()
            text = transcript_of(program)
            out.write(text.encode("utf-8"))
            out.flush()
            code = 0
        except SystemExit as stop:  # the program ended itself with sys.exit(...)
            code = stop.code if isinstance(stop.code, int) else 1
        except BaseException:
            import traceback

            traceback.print_exc()
        sys.stderr.flush()
        os._exit(code & 0xFF)
    return pid, out, err


def _finish(status: int, out, err) -> dict:
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
    with out, err:
        out.seek(0)
        err.seek(0)
        transcript = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if code == -signal.SIGALRM:
        stderr += f"killed after {TIMEOUT} s\n"
    return {"transcript": transcript, "stderr": stderr, "status": code}


def run_batch(programs: list[str], jobs: int, rounded_sqrt: frozenset[str] = frozenset()
              ) -> dict[str, dict]:
    """Each program in a forked child of this process, `jobs` at a time; those in
    `rounded_sqrt` with PyTorch's float32 sqrt correctly rounded."""
    pending, running, results = list(programs), {}, {}
    while pending or running:
        while pending and len(running) < jobs:
            program = pending.pop(0)
            pid, out, err = _start(program, program in rounded_sqrt)
            running[pid] = (program, out, err)
        pid, status = os.waitpid(-1, 0)
        if pid in running:
            program, out, err = running.pop(pid)
            results[program] = _finish(status, out, err)
    return results


def environment() -> dict[str, str]:
    """The environment programs run in: no PYTHON* variables but a fixed hash seed, and
    PyTorch's kernels those of AVX2 (TORCH_CPU_CAPABILITY)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8", PYTHONPATH=str(ROOT),
               ATEN_CPU_CAPABILITY=TORCH_CPU_CAPABILITY)
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


def run(programs: list[Path], library: str, jobs: int | None = None,
        mkl_sqrt: Collection[str] = (), rounded_sqrt: str = "where needed") -> dict[Path, dict]:
    """Run the programs on `library` ("minigrad" or "torch"): {program: {"transcript", "stderr",
    "status"}}. A program that ran to its end (an uncaught error is part of its transcript)
    has status 0 and an empty stderr. On PyTorch, programs whose name is in `mkl_sqrt` run with
    its float32 sqrt correctly rounded where this CPU's is not ("where needed") or anywhere
    ("always")."""
    assert rounded_sqrt in ("where needed", "always"), rounded_sqrt
    assert library in LIBRARIES, library
    if not programs:
        return {}
    jobs = jobs or int(os.environ.get("PROGRAM_JOBS", "0")) or os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.json"
        done = subprocess.run(
            [sys.executable, __file__, "--batch", library, str(results), str(jobs),
             json.dumps([rounded_sqrt, sorted(mkl_sqrt) if library == "torch" else []]),
             *map(str, programs)],
            cwd=folder, env=environment(), capture_output=True, text=True, check=False)
        if done.returncode != 0 or not results.exists():
            failure = {"transcript": "", "status": done.returncode or 1,
                       "stderr": f"the batch failed (exit status {done.returncode}):\n"
                                 f"{done.stdout}{done.stderr}"}
            return dict.fromkeys(programs, failure)
        found = json.loads(results.read_text(encoding="utf-8"))
    return {program: found[str(program)] for program in programs}


def assert_same_on_both(source: str, folder: Path) -> str:
    """Run a program given as text (PyTorch code) on minigrad and on PyTorch, each in a fresh
    interpreter of its own: both run to their end and show the same. Returns the transcript."""
    program = folder / "program.py"
    program.write_text(source, encoding="utf-8")
    ours, theirs = (run([program], library)[program] for library in LIBRARIES)
    assert ours == theirs
    assert (ours["status"], ours["stderr"]) == (0, ""), ours
    return ours["transcript"]


def torch_version() -> str | None:
    """The installed PyTorch's version, without importing it; None when there is none."""
    try:
        return importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return None


def main(argv: list[str]) -> int:
    if argv[:1] == ["--batch"]:  # run() calls this in a subprocess of its own
        library, target, jobs, programs = argv[1], argv[2], int(argv[3]), argv[5:]
        rounded_sqrt, mkl_sqrt = json.loads(argv[4])
        import_library(library)
        if mkl_sqrt and (rounded_sqrt == "always" or not torch_sqrt_is_correctly_rounded()):
            patched = frozenset(p for p in programs if Path(p).stem in mkl_sqrt)
        else:
            patched = frozenset()
        Path(target).write_text(json.dumps(run_batch(programs, jobs, patched)),
                                encoding="utf-8")
        return 0
    library = "torch" if argv[:1] == ["--torch"] else "minigrad"
    paths = [Path(p).resolve() for p in argv if p != "--torch"]
    if len(paths) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    result = run(paths, library)[paths[0]]
    sys.stdout.write(result["transcript"])
    sys.stderr.write(result["stderr"])
    return result["status"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
