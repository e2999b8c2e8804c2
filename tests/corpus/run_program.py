"""Runs one corpus program and prints its transcript: what it printed, then each warning
and an uncaught error as one line each (`UserWarning: ...`, `RuntimeError: ...`), without the
file paths and line numbers Python adds, and grad_fn reprs without their memory address, so
that the transcript is the same on every run and machine.

    python tests/corpus/run_program.py PROGRAM.py            # with PyTorch
    python tests/corpus/run_program.py --minigrad PROGRAM.py # with minigrad as `torch`
    python tests/corpus/run_program.py --correctly-rounded-sqrt PROGRAM.py

With --minigrad, `import torch` (and `torch.nn`, `from torch.autograd import Variable`, ...)
gives minigrad: the program's text is not changed. --correctly-rounded-sqrt runs PyTorch with
its float32 sqrt rounded correctly, as Intel MKL rounds it on the CPU the transcripts were
recorded on but not on every CPU (tests/test_corpus.py, MKL_SQRT)."""
from __future__ import annotations

import importlib
import io
import re
import runpy
import sys
import warnings
from contextlib import redirect_stdout

# The one deliberate difference: PyTorch prints a grad_fn as `<AddBackward0 object at 0x7f..>`,
# minigrad without the address (which changes from run to run). Both transcripts drop it.
ADDRESS = re.compile(r" object at 0x[0-9a-fA-F]+>")
# PyTorch's warnings from C++ end with where its build kept the source file; that path is the
# build machine's, not PyTorch's behaviour, so both transcripts drop it too.
CPP_LOCATION = re.compile(r" \(Triggered internally at [^)]*\.\)")

# The submodules a program may import by name; each is the matching minigrad module.
SUBMODULES = ("nn", "nn.functional", "nn.init", "nn.utils", "optim", "optim.lr_scheduler",
              "autograd", "autograd.functional", "autograd.function", "autograd.graph",
              "autograd.profiler", "linalg", "utils", "utils.data", "utils.checkpoint")


def use_minigrad_as_torch() -> None:
    import minigrad

    sys.modules["torch"] = minigrad
    for name in SUBMODULES:
        sys.modules[f"torch.{name}"] = importlib.import_module(f"minigrad.{name}")


def use_correctly_rounded_sqrt() -> None:
    """PyTorch's float32 `sqrt` (Tensor.sqrt, sqrt_ and torch.sqrt, which is what Adam and
    RMSprop call on a CPU) as float64's rounded once to float32: the correctly rounded value."""
    import numpy as np
    import torch

    def rounded(tensor: torch.Tensor) -> torch.Tensor:
        exact = np.sqrt(tensor.detach().numpy().astype(np.float64)).astype(np.float32)
        return torch.from_numpy(exact).reshape(tensor.shape)

    def patched(method):  # noqa: ANN001, ANN202
        def sqrt(tensor, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            if (tensor.dtype != torch.float32 or args or kwargs or tensor.requires_grad
                    and torch.is_grad_enabled()):
                return method(tensor, *args, **kwargs)
            return rounded(tensor)
        return sqrt

    def patched_in_place(tensor, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if tensor.dtype != torch.float32 or args or kwargs or tensor.requires_grad:
            return sqrt_in_place(tensor, *args, **kwargs)
        return tensor.copy_(rounded(tensor))

    sqrt_in_place = torch.Tensor.sqrt_
    torch.Tensor.sqrt = patched(torch.Tensor.sqrt)
    torch.sqrt = patched(torch.sqrt)
    torch.Tensor.sqrt_ = patched_in_place


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--minigrad":
        use_minigrad_as_torch()
        argv = argv[1:]
    if argv and argv[0] == "--correctly-rounded-sqrt":
        use_correctly_rounded_sqrt()
        argv = argv[1:]
    (program,) = argv
    transcript = io.StringIO()

    def show_warning(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
        transcript.write(f"{category.__name__}: {message}\n")

    warnings.showwarning = show_warning
    warnings.simplefilter("always")
    status = 0
    with redirect_stdout(transcript):
        try:
            runpy.run_path(program, run_name="__main__")
        except Exception as error:  # noqa: BLE001 - the error is part of the transcript
            print(f"{type(error).__name__}: {error}")
            status = 1
    sys.stdout.write(CPP_LOCATION.sub("", ADDRESS.sub(" object>", transcript.getvalue())))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
