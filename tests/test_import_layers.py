"""minigrad's modules (the engine's, fidelity/'s and compat/'s) import each other at the top,
each only from layers below it (Tensor imports nothing from autograd): whichever module a
learner imports first, in a fresh interpreter, it loads, and so does everything a notebook
reaches through `minigrad`."""
from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import minigrad

MODULES = sorted(info.name for info in pkgutil.walk_packages(minigrad.__path__, "minigrad."))


def test_the_walk_finds_the_modules_of_all_three_layers():
    engine = {"minigrad.tensor", "minigrad.autograd.graph", "minigrad.autograd.function",
              "minigrad.autograd.engine", "minigrad.ops.pointwise", "minigrad.nn.module"}
    fidelity = {"minigrad.fidelity", "minigrad.fidelity.summation", "minigrad.fidelity.layout",
                "minigrad.fidelity.generator", "minigrad.fidelity.avx_mathfun"}
    compat = {"minigrad.compat", "minigrad.compat.device", "minigrad.compat.legacy",
              "minigrad.compat.subset"}
    assert engine | fidelity | compat <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_a_module_imported_first_in_a_fresh_interpreter_loads(module):
    # After it, a small forward and backward must work: a half-initialised module would
    # surface here as an AttributeError or an ImportError.
    code = (f"import {module}\nimport minigrad\n"
            "x = minigrad.tensor([1.0, 2.0], requires_grad=True)\n"
            "(x * x).sum().backward()\n"
            "assert x.grad.tolist() == [2.0, 4.0], x.grad\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
