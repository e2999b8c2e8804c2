"""Whichever of minigrad's modules a learner imports first, in a fresh interpreter, it loads,
and so does everything a notebook reaches through `minigrad`. (Which module may import which is
pyproject.toml's import-linter contracts, checked in test_layers.py.)

`import minigrad.X` runs the package's `__init__` to its end before it reaches X: for every
module that `import minigrad` loads, importing it first is importing `minigrad` first. So one
interpreter, with numpy loaded and nothing of minigrad, forks a child that imports `minigrad`,
and one child for each module that `import minigrad` does not load (the lazy ones): one
interpreter's start instead of one per module, and each module's verdict its own."""
from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

import minigrad

MODULES = sorted(info.name for info in pkgutil.walk_packages(minigrad.__path__, "minigrad."))

# After the import, a small forward and backward must work: a half-initialised module would
# surface here as an AttributeError or an ImportError. Prints {module: [status, error]}.
IMPORT_FIRST = """
import json, os, sys, tempfile, traceback
import numpy

def start(module):
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            __import__(module)
            import minigrad
            x = minigrad.tensor([1.0, 2.0], requires_grad=True)
            (x * x).sum().backward()
            assert x.grad.tolist() == [2.0, 4.0], x.grad
            out.write(json.dumps(sorted(m for m in sys.modules if m.startswith("minigrad."))).encode())
            out.flush()
            code = 0
        except BaseException:
            err.write(traceback.format_exc().encode())
            err.flush()
        os._exit(code)
    return pid, module, out, err

def finish(status, out, err):
    out.seek(0)
    err.seek(0)
    return status, json.loads(out.read() or "[]"), err.read().decode()

pid, _, out, err = start("minigrad")
status, loaded, error = finish(os.waitpid(pid, 0)[1], out, err)
results = dict.fromkeys(loaded, [status, error])
pending, running = [m for m in sys.argv[1:] if m not in results], {}
while pending or running:
    while pending and len(running) < (os.cpu_count() or 1):
        pid, module, out, err = start(pending.pop())
        running[pid] = (module, out, err)
    pid, status = os.waitpid(-1, 0)
    module, out, err = running.pop(pid)
    status, _, error = finish(status, out, err)
    results[module] = [status, error]
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def imported_first() -> dict:
    done = subprocess.run([sys.executable, "-c", IMPORT_FIRST, *MODULES], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_walk_finds_the_modules_of_all_three_layers():
    engine = {"minigrad.tensor", "minigrad.autograd.graph", "minigrad.autograd.function",
              "minigrad.autograd.engine", "minigrad.ops.pointwise", "minigrad.nn.module"}
    fidelity = {"minigrad.fidelity", "minigrad.fidelity.summation", "minigrad.fidelity.layout",
                "minigrad.fidelity.generator", "minigrad.fidelity.avx_mathfun"}
    compat = {"minigrad.compat", "minigrad.compat.device", "minigrad.compat.legacy",
              "minigrad.compat.storage"}
    assert engine | fidelity | compat <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_a_module_imported_first_in_a_fresh_interpreter_loads(module, imported_first):
    status, error = imported_first[module]
    assert status == 0, error


def test_a_module_that_fails_to_load_is_reported():
    done = subprocess.run([sys.executable, "-c", IMPORT_FIRST, "minigrad.no_such_module"],
                          capture_output=True, text=True, timeout=120, check=True)
    status, error = json.loads(done.stdout)["minigrad.no_such_module"]
    assert status != 0 and "ModuleNotFoundError" in error
