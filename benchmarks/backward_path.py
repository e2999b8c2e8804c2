"""The learner's path from `Tensor.backward()` to a leaf's `.grad` (issue 35 item 4): which of
minigrad's Python functions a plain backward pass enters, in which files, not counting each
node's own formula (`backward`, `_backward_on_arrays` and whatever they call).

    python benchmarks/backward_path.py          # the functions, file by file, and the totals

Counted with `sys.setprofile` on `(x * x).sum().backward()`, the graph built beforehand: a
function counts once however often it runs. tests/engine/test_backward_path.py holds the
budget (at most 3 files and 10 functions), so that it can fail."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

FORMULAS = ("backward", "_backward_on_arrays", "_mul_on_arrays")  # an op's, in ops/


def functions_on_the_path() -> list[tuple[str, str]]:
    """(file relative to minigrad/, qualified name) of each minigrad function entered."""
    import minigrad as torch
    package = Path(torch.__file__).parent
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    seen: dict[tuple[str, str], None] = {}
    inside_formula: list[Any] = []  # the frame of the formula being run, if any

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "return" and inside_formula and frame is inside_formula[-1]:
            inside_formula.pop()
        if event != "call" or inside_formula:
            return
        code = frame.f_code
        path = Path(code.co_filename)
        if package not in path.parents:
            return
        if code.co_name in FORMULAS and path.parent.name == "ops":
            inside_formula.append(frame)
            return
        seen.setdefault((str(path.relative_to(package)), code.co_qualname), None)

    # The pass of a process where no node has had a hook yet (a test run has had many; this
    # graph has none): the engine then asks no node for one (`_handles.seen`).
    from minigrad import _handles
    hooks_seen, _handles.seen.hooks = _handles.seen.hooks, False
    sys.setprofile(profile)
    try:
        y.backward()
    finally:
        sys.setprofile(None)
        _handles.seen.hooks = hooks_seen
    assert x.grad is not None
    return list(seen)


def main() -> None:
    functions = functions_on_the_path()
    files = sorted({f for f, _ in functions})
    for file in files:
        print(f"{file}: {', '.join(name for f, name in functions if f == file)}")
    print(f"{len(functions)} functions in {len(files)} files")


if __name__ == "__main__":
    main()
