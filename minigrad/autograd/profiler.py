"""torch.autograd.profiler: the `profile` context manager that tutorials open around a
forward and backward pass. minigrad runs the code inside it as usual but times nothing: its
results (key_averages, table, export_chrome_trace) raise one line saying so."""
from __future__ import annotations

from typing import Any

_NO_TIMINGS = ("minigrad is a subset of PyTorch: torch.autograd.profiler.profile runs the code "
               "but records no timings; in this course time it with time.perf_counter()")


class profile:  # PyTorch's name
    """`with torch.autograd.profiler.profile() as prof:` runs its block; no timings."""

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, **options: Any) -> None:
        self.enabled = enabled

    def __enter__(self) -> profile:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def key_averages(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(_NO_TIMINGS)

    def table(self, *args: Any, **kwargs: Any) -> str:
        raise NotImplementedError(_NO_TIMINGS)

    def export_chrome_trace(self, path: str) -> None:
        raise NotImplementedError(_NO_TIMINGS)

    def __str__(self) -> str:
        raise NotImplementedError(_NO_TIMINGS)


class record_function:
    """`with record_function("name"):` labels a block for the profiler: here it only runs it."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name

    def __enter__(self) -> record_function:
        return self

    def __exit__(self, *exc: object) -> None:
        return None
