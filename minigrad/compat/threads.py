"""torch.get_num_threads / set_num_threads, which tutorials print before they time something,
and torch._foreach_copy_, which PyTorch's own recipes call to copy a list of parameters.

PyTorch runs an operation on several threads (by default one per core); minigrad's are
numpy's, so the number is recorded and answered, as PyTorch answers it, and changes nothing."""
from __future__ import annotations

import os

from ..ops.operands import type_name

__all__ = ["_foreach_copy_", "get_num_threads", "set_num_threads"]

_threads = {"count": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1}


def get_num_threads() -> int:
    return _threads["count"]


def set_num_threads(count: int) -> None:
    if not isinstance(count, int) or isinstance(count, bool):
        raise RuntimeError(f"set_num_threads expects an int, but got {type_name(count)}")
    if count <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _threads["count"] = count


def _foreach_copy_(self: list, src: list, non_blocking: bool = False) -> list:
    """Each tensor of `self` takes the values of the one at its place in `src`."""
    if len(self) != len(src):
        raise RuntimeError(f"Tensor lists must have the same number of tensors, got {len(self)} "
                           f"and {len(src)}")
    for target, source in zip(self, src):
        target.copy_(source)
    return self


