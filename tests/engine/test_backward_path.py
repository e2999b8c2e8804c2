"""How long the learner's path from `Tensor.backward()` to a leaf's `.grad` is (issue 35 item
4), counted by benchmarks/backward_path.py: the budget below is what the path takes now, so
that a change that lengthens it fails here and must say why. Issue 35 asks for 3 files and 10
functions; benchmarks/op_path.md says where the path stands and what is left."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import backward_path  # noqa: E402

MAX_FUNCTIONS, MAX_FILES = 10, 3


def test_the_path_from_backward_to_grad_stays_within_its_budget() -> None:
    functions = backward_path.functions_on_the_path()
    files = {file for file, _ in functions}
    assert ("autograd/engine.py", "GraphTask.run") in functions  # it counts what it should
    assert not any("_backward_on_arrays" in name for _, name in functions)  # formulas aside
    assert len(functions) <= MAX_FUNCTIONS, functions
    assert len(files) <= MAX_FILES, sorted(files)
